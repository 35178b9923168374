// The sandbox card acquirer kept honest (issue 26 item 4, decision 0421): it takes the path a real
// acquirer takes. makePayment without a token sends the payer to the sandbox's own signed page; the card
// is entered there; the credit is booked only from the sandbox's signed notification, once per sandbox
// transaction id; the read-back does not show a charge before its notification (a held one stays
// unknown); a decline or an abandoned page credits nothing; a bad signature is refused and writes
// nothing. Each with its ledger effect, on PGlite and PostgreSQL.
import crypto from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, orders, paymentEvents, payments, sandboxCharges } from '../../db/schema';
import { as } from '../../test/as';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { moneyProblems } from '../../test/money';
import * as sandbox from '../sandbox-acquirer/sandbox-acquirer.service';
import * as money from './money.service';
import { cardProviderName, sandboxInUse } from './providers';
import { SANDBOX_PAGE_MINUTES } from './providers/sandbox';

let t: TestApp;
const PRICE = 500;
const FUTURE = `12/${String(new Date().getUTCFullYear() + 2).slice(2)}`;

beforeAll(async () => {
  t = await createTestApp({ PRICE_STANDARD_TOPUP: String(PRICE), MIN_TOPUP: '1000' });
  await seedGeo(t.ctx);
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyProblems(t.ctx.db)).toEqual([]);
});

async function advertiser() {
  const { account } = await createAdvertiser(t.ctx, { bumpedAt: new Date(Date.now() - 86_400_000) });
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}
type Advertiser = Awaited<ReturnType<typeof advertiser>>;

/** makePayment by card without a token: the answer sends the payer to the sandbox's page. */
async function checkout(a: Advertiser, opts: { cart?: boolean; amount?: number } = {}) {
  if (opts.cart) await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
  const body = {
    method: 'card',
    idempotency_key: crypto.randomUUID(),
    purpose: opts.cart ? 'cart' : 'load',
    return_path: opts.cart ? '/checkout/cart' : `/edit/load/${a.id}`,
    ...(opts.amount ? { amount: opts.amount } : {}),
  };
  const res = await as(t, a.session).post('/api/payment/makePayment', body);
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data;
  expect(data.status).toBe('requires_action');
  const url: string = data.payment.next_action.url;
  expect(url).toMatch(/^\/sandbox-acquirer\/v1\/pay\?/);
  return {
    body,
    paymentId: data.payment.id as number,
    url,
    fields: Object.fromEntries(new URL(url, 'http://x').searchParams),
  };
}

/** The payer submits the sandbox page's form (the browser posts it to the sandbox, not to our API). */
const submitPage = (fields: Record<string, string>, card: Record<string, string>) =>
  as(t).post('/sandbox-acquirer/v1/pay', new URLSearchParams({ ...fields, ...card }).toString(), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

const card = (number: string, extra: Record<string, string> = {}) => ({
  number,
  name: 'Ada Test',
  expiry: FUTURE,
  cvc: '123',
  ...extra,
});

async function state(a: Advertiser, paymentId: number) {
  const [p] = await t.ctx.db.select().from(payments).where(eq(payments.id, paymentId));
  const [events] = await t.ctx.db
    .select({ n: count() })
    .from(paymentEvents)
    .where(eq(paymentEvents.paymentId, paymentId));
  const userOrders = await t.ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.userId, a.id));
  const [cart] = await t.ctx.db.select({ n: count() }).from(cartItems).where(eq(cartItems.userId, a.id));
  return {
    balance: await money.balanceOf(t.ctx, a.id),
    payment: p.status,
    orders: userOrders.map((o) => o.status),
    cart: cart.n,
    events: events.n,
  };
}

const chargeOf = async (paymentId: number) => {
  const [row] = await t.ctx.db
    .select()
    .from(sandboxCharges)
    .where(eq(sandboxCharges.idempotencyKey, `pay_${paymentId}`));
  return row;
};

const notify = (chargeId: string) => as(t).post(`/sandbox-acquirer/v1/charges/${chargeId}/notify`);

async function later(minutes: number, run: () => Promise<unknown>) {
  const clock = t.ctx.now;
  const at = new Date(clock().getTime() + minutes * 60_000);
  t.ctx.now = () => at;
  try {
    return await run();
  } finally {
    t.ctx.now = clock;
  }
}

describe('the sandbox card acquirer: a hosted page and a signed notification', () => {
  it('tells the client to use the hosted page, marked as a test provider', async () => {
    const a = await advertiser();
    const res = await as(t, a.session).get('/api/payment/getData');
    expect(res.json().data.methods.card).toEqual({
      provider: 'sandbox',
      sandbox: true,
      test_mode: true,
      hosted: true,
      tokenize_url: '',
    });
  });

  it('the page shows the amount, the test cards and the card fields, marked TEST; a retry keeps the page', async () => {
    const a = await advertiser();
    const { body, paymentId, url } = await checkout(a, { amount: 1250 });
    const page = await as(t).get(url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const html = page.body;
    expect(html).toContain('data-testid="sandbox-test-provider"');
    expect(html).toContain('SANDBOX: no real money');
    expect(html).toContain('TEST payment provider');
    expect(html).toContain('€12.50');
    for (const n of ['4242 4242 4242 4242', '4000 0000 0000 3220', '4000 0000 0000 0002']) expect(html).toContain(n);
    for (const field of ['number', 'name', 'expiry', 'cvc', 'save', 'hold']) expect(html).toContain(`name="${field}"`);
    expect(html).toContain('Save on this device');
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'requires_action', events: 0 });
    const again = await as(t, a.session).post('/api/payment/makePayment', body);
    expect(again.json().data.payment).toMatchObject({ id: paymentId, next_action: { url } });
  });

  it('a sale: 4242 on the page, the notification credits once, and the payer is back on Load Credits', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a, { amount: 1000 });
    const paid = await submitPage(fields, card('4242 4242 4242 4242'));
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/edit/load/${a.id}?payment=${paymentId}`);
    expect(await state(a, paymentId)).toMatchObject({ balance: 1000, payment: 'succeeded', events: 1, orders: [] });
    const res = await as(t, a.session).get(`/api/payment/getPayment/${paymentId}`);
    expect(res.json().data).toMatchObject({ status: 'loaded', payment: { card_last4: '4242' } });
    // Submitted again (a double click, the back button): the same charge, nothing more.
    const twice = await submitPage(fields, card('4242 4242 4242 4242'));
    expect(twice.statusCode).toBe(303);
    expect(await state(a, paymentId)).toMatchObject({ balance: 1000, events: 1 });
  });

  it('a duplicate notification credits once', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a);
    await submitPage(fields, card('4242424242424242'));
    const charge = await chargeOf(paymentId);
    for (let i = 0; i < 3; i++) {
      const res = await notify(charge.id);
      expect(res.json()).toEqual({ delivered: 200 });
    }
    expect(await state(a, paymentId)).toMatchObject({ balance: 1000, payment: 'succeeded', events: 1 });
  });

  it('a held notification: nothing is credited or shown until it is released, then credited once', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a);
    const paid = await submitPage(fields, card('4242424242424242', { hold: 'on' }));
    const charge = await chargeOf(paymentId);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/sandbox-acquirer/v1/charges/${charge.id}`);
    expect(charge).toMatchObject({ status: 'succeeded', hosted: true, notificationHeld: true, notifiedAt: null });
    // The sandbox took the money, but our read-back does not show it: the payment is still open.
    const polled = await as(t, a.session).get(`/api/payment/getPayment/${paymentId}`);
    expect(polled.json().data).toMatchObject({ status: 'requires_action', balance: 0 });
    await money.settleOpenPayments(t.ctx);
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'requires_action', events: 0 });
    const held = await as(t).get(`/sandbox-acquirer/v1/charges/${charge.id}`);
    expect(held.body).toContain('data-state="held"');
    // Released from the page's button: the payer is sent back to the shop, credited.
    const released = await as(t).post(`/sandbox-acquirer/v1/charges/${charge.id}/notify`, '', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(released.statusCode).toBe(303);
    expect(released.headers.location).toBe(`/edit/load/${a.id}?payment=${paymentId}`);
    expect(await state(a, paymentId)).toMatchObject({ balance: 1000, payment: 'succeeded', events: 1 });
    expect(await chargeOf(paymentId)).toMatchObject({ notificationHeld: false, notifiedAt: expect.any(Date) });
  });

  it('a cart paid by card: the notification credits the load and pays the cart; back to the cart', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a, { cart: true });
    const paid = await submitPage(fields, card('4242424242424242'));
    expect(paid.headers.location).toBe(`/checkout/cart?payment=${paymentId}`);
    expect(await state(a, paymentId)).toMatchObject({
      balance: 1000 - PRICE,
      payment: 'succeeded',
      orders: ['paid'],
      cart: 0,
    });
  });

  it('a decline: the notification closes the payment and the cart order, nothing credited', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a, { cart: true });
    const declined = await submitPage(fields, card('4000 0000 0000 0002'));
    expect(declined.statusCode).toBe(303);
    expect(declined.headers.location).toBe(`/checkout/cart?payment=${paymentId}`);
    expect(await state(a, paymentId)).toMatchObject({
      balance: 0,
      payment: 'failed',
      orders: ['failed'],
      cart: 1,
      events: 1,
    });
  });

  it('3220: the confirmation step first; the notification follows the answer', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a);
    const paid = await submitPage(fields, card('4000000000003220'));
    const charge = await chargeOf(paymentId);
    expect(paid.headers.location).toBe(`/sandbox-acquirer/v1/challenge/${charge.id}`);
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'requires_action', events: 0 });
    const approved = await as(t).post(`/sandbox-acquirer/v1/challenge/${charge.id}`, 'outcome=approve', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(approved.headers.location).toBe(`/edit/load/${a.id}?payment=${paymentId}`);
    expect(await state(a, paymentId)).toMatchObject({ balance: 1000, payment: 'succeeded', events: 1 });
  });

  it('a card the page refuses (not a test card, bad expiry) charges nothing and shows the form again', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a);
    const wrong = await submitPage(fields, card('4111 1111 1111 1111'));
    expect(wrong.statusCode).toBe(402);
    expect(wrong.body).toContain('not one of the test cards');
    const expiry = await submitPage(fields, card('4242424242424242', { expiry: '13/40' }));
    expect(expiry.statusCode).toBe(402);
    expect(await chargeOf(paymentId)).toBeUndefined();
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'requires_action', events: 0 });
  });

  it('an abandoned page: expired after its time, nothing credited; the page then takes no card', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a, { cart: true });
    await later(SANDBOX_PAGE_MINUTES - 1, () => money.settleOpenPayments(t.ctx));
    expect(await state(a, paymentId)).toMatchObject({ payment: 'requires_action', orders: ['pending'] });
    await later(SANDBOX_PAGE_MINUTES + 1, () => money.settleOpenPayments(t.ctx));
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'expired', orders: ['failed'], cart: 1 });
    const late = (await later(SANDBOX_PAGE_MINUTES + 1, () => submitPage(fields, card('4242424242424242')))) as Awaited<
      ReturnType<typeof submitPage>
    >;
    expect(late.statusCode).toBe(410);
    expect(await chargeOf(paymentId)).toBeUndefined();
  });

  it('a held notification released after the page expired still credits (the money was taken)', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a);
    await submitPage(fields, card('4242424242424242', { hold: 'on' }));
    await later(SANDBOX_PAGE_MINUTES + 1, () => money.settleOpenPayments(t.ctx));
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'expired' });
    await notify((await chargeOf(paymentId)).id);
    expect(await state(a, paymentId)).toMatchObject({ balance: 1000, payment: 'succeeded', events: 1 });
  });

  it('a tampered page address is refused by the sandbox and charges nothing', async () => {
    const a = await advertiser();
    const { paymentId, fields, url } = await checkout(a, { amount: 5000 });
    const cheaper = url.replace('amount=5000', 'amount=100');
    expect((await as(t).get(cheaper)).statusCode).toBe(400);
    const posted = await submitPage({ ...fields, amount: '100' }, card('4242424242424242'));
    expect(posted.statusCode).toBe(400);
    expect(await chargeOf(paymentId)).toBeUndefined();
  });

  it('a notification with a bad signature or an altered body is refused (401) and writes nothing', async () => {
    const a = await advertiser();
    const { paymentId, fields } = await checkout(a);
    await submitPage(fields, card('4242424242424242', { hold: 'on' }));
    const charge = await chargeOf(paymentId);
    const { body, signature } = await sandbox.chargeNotification(t.ctx, charge.id);
    const send = (payload: string, sig?: string) =>
      as(t).post('/api/payment/webhook/sandbox', payload, {
        headers: { 'content-type': 'application/json', ...(sig ? { [sandbox.SANDBOX_SIGNATURE_HEADER]: sig } : {}) },
      });
    const [before] = await t.ctx.db.select({ n: count() }).from(paymentEvents);
    expect((await send(body)).statusCode).toBe(401);
    expect((await send(body, `sha256=${'0'.repeat(64)}`)).statusCode).toBe(401);
    expect((await send(body.replace('"amount":1000', '"amount":100000'), signature)).statusCode).toBe(401);
    const [after] = await t.ctx.db.select({ n: count() }).from(paymentEvents);
    expect(after.n).toBe(before.n);
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'requires_action', events: 0 });
    // The genuine one then credits.
    expect((await send(body, signature)).json()).toEqual({ received: true, outcome: 'credited' });
    expect(await state(a, paymentId)).toMatchObject({ balance: 1000, payment: 'succeeded', events: 1 });
  });

  it('the crypto sandbox, which shares the name and the webhook, still settles its own invoices', async () => {
    const a = await advertiser();
    const res = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'crypto',
      idempotency_key: crypto.randomUUID(),
      purpose: 'load',
    });
    const payment = res.json().data.payment;
    const simulated = await as(t).post(payment.invoice.simulate_url);
    expect(simulated.json()).toEqual({ delivered: 200 });
    expect(await state(a, payment.id)).toMatchObject({ balance: 1000, payment: 'succeeded', events: 1 });
  });

  it('"save on this device" keeps a token in the sandbox\'s own cookie, and the next page offers it', async () => {
    const a = await advertiser();
    const first = await checkout(a);
    const paid = await submitPage(first.fields, card('4242424242424242', { save: 'on' }));
    const cookie = paid.cookies.find((c) => c.name === 'sandbox_saved_card');
    expect(cookie).toMatchObject({ path: '/sandbox-acquirer/', httpOnly: true });
    expect(cookie!.value).toMatch(/^tok_/);
    const second = await checkout(a);
    const page = await as(t).get(second.url, { cookies: { sandbox_saved_card: cookie!.value } });
    expect(page.body).toContain('Pay with the saved card ending in 4242');
    const again = await as(t).post(
      '/sandbox-acquirer/v1/pay',
      new URLSearchParams({ ...second.fields, saved: 'on' }).toString(),
      {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        cookies: { sandbox_saved_card: cookie!.value },
      },
    );
    expect(again.headers.location).toBe(`/edit/load/${a.id}?payment=${second.paymentId}`);
    expect(await state(a, second.paymentId)).toMatchObject({ balance: 2000, payment: 'succeeded' });
  });
});

describe('the sandbox in production', () => {
  const ctxOf = (env: Record<string, string>) => ({ env }) as unknown as TestApp['ctx'];
  it('is on only when CARD_PROVIDER=sandbox (or CRYPTO_PROVIDER=sandbox) is set explicitly', () => {
    expect(cardProviderName(ctxOf({ NODE_ENV: 'production' }))).toBe('none');
    expect(sandboxInUse(ctxOf({ NODE_ENV: 'production' }))).toBe(false);
    expect(sandboxInUse(ctxOf({ NODE_ENV: 'production', CARD_PROVIDER: 'verotel' }))).toBe(false);
    expect(cardProviderName(ctxOf({ NODE_ENV: 'production', CARD_PROVIDER: 'sandbox' }))).toBe('sandbox');
    expect(sandboxInUse(ctxOf({ NODE_ENV: 'production', CARD_PROVIDER: 'sandbox' }))).toBe(true);
    expect(cardProviderName(ctxOf({ NODE_ENV: 'development' }))).toBe('sandbox');
  });
});
