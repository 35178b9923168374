// The BTCPay Server adapter (providers/btcpay.ts) against a local stand-in of the Greenfield API
// (src/server/test/btcpay-stand-in.ts): invoice creation with the documented body, the checkout link,
// and webhooks signed in BTCPay-Sig. Duplicate deliveries credit once, late and out-of-order ones change
// nothing the API does not confirm, badly signed ones are refused and write nothing.
import crypto from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orders, paymentEvents, payments, refundIntents } from '../../db/schema';
import { startBtcpayStandIn, type StandIn } from '../../test/btcpay-stand-in';
import { startCutProxy, type CutProxy } from '../../test/cut-proxy';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { moneyProblems } from '../../test/money';
import * as money from './money.service';
import { INTENT_RETRY_MS } from './reversals';

let t: TestApp;
let btcpay: StandIn;
// Between the app and the stand-in: passes everything on, and loses an answer when a test asks it to.
let proxy: CutProxy;
const PRICE = 500;

beforeAll(async () => {
  btcpay = await startBtcpayStandIn();
  proxy = await startCutProxy(btcpay.url);
  t = await createTestApp({
    PRICE_STANDARD_TOPUP: String(PRICE),
    MIN_TOPUP: '1000',
    CRYPTO_PROVIDER: 'btcpay',
    BTCPAY_URL: proxy.url,
    BTCPAY_STORE_ID: btcpay.storeId,
    BTCPAY_API_KEY: btcpay.apiKey,
    BTCPAY_WEBHOOK_SECRET: btcpay.webhookSecret,
  });
  await seedGeo(t.ctx);
});
afterAll(async () => {
  await t.close();
  await proxy.close();
  await btcpay.close();
});
// What BTCPay refunded (its pull payments, by invoice) must be what our ledger refunded, per payment.
const pulled = () =>
  btcpay.pullPayments.map((p) => ({
    provider: 'btcpay',
    ref: p.invoiceId,
    amount: Math.round(Number(p.amount) * 100),
  }));
afterEach(async () => {
  expect(await moneyProblems(t.ctx.db, { providerRefunds: pulled() })).toEqual([]);
});

async function advertiser() {
  const { account } = await createAdvertiser(t.ctx, { bumpedAt: new Date(Date.now() - 86_400_000) });
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}
type Advertiser = Awaited<ReturnType<typeof advertiser>>;

/** An invoice for the cart's top-up (or a plain load of `amount`): our payment and the stand-in's invoice. */
async function invoiceFor(a: Advertiser, opts: { cart?: boolean; amount?: number } = {}) {
  if (opts.cart !== false)
    await t.app.inject({
      method: 'POST',
      url: '/api/payment/addToCart',
      ...a.session,
      payload: { uid: 'standard_topup' },
    });
  const key = crypto.randomUUID();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/payment/makePayment',
    ...a.session,
    payload: { method: 'crypto', idempotency_key: key, ...(opts.amount ? { amount: opts.amount } : {}) },
  });
  expect(res.statusCode).toBe(200);
  const data = res.json().data;
  const [row] = await t.ctx.db.select().from(payments).where(eq(payments.id, data.payment.id));
  return { key, data, payment: row, invoice: btcpay.invoices.get(row.providerRef!)! };
}

const deliver = (hook: { body: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/payment/webhook/btcpay', headers: hook.headers, payload: hook.body });

async function state(a: Advertiser, paymentId: number) {
  const [p] = await t.ctx.db.select().from(payments).where(eq(payments.id, paymentId));
  const [events] = await t.ctx.db.select({ n: count() }).from(paymentEvents);
  const userOrders = await t.ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.userId, a.id));
  return {
    balance: await money.balanceOf(t.ctx, a.id),
    payment: p.status,
    orders: userOrders.map((o) => o.status),
    events: events.n,
  };
}

describe('BTCPay Greenfield adapter against a local stand-in', () => {
  it('creates the invoice with the documented body and shows its address, amount and checkout link', async () => {
    const a = await advertiser();
    const { key, data, payment, invoice } = await invoiceFor(a);
    const created = btcpay.calls.find((c) => c.method === 'POST')!;
    expect(created.path).toBe(`/api/v1/stores/${btcpay.storeId}/invoices`);
    expect(created.body).toEqual({
      amount: '10.00',
      currency: 'EUR',
      metadata: { orderId: `pay_${payment.id}` },
      checkout: { expirationMinutes: 60, redirectURL: expect.stringContaining(`?payment=${payment.id}`) },
    });
    expect(data).toMatchObject({ status: 'pending', balance: 0 });
    expect(data.payment.invoice).toEqual({
      address: expect.stringMatching(/^bcrt1q/),
      crypto_amount: '0.00020000',
      crypto_currency: 'BTC',
      checkout_url: `${btcpay.url}/i/${invoice.id}`,
      expires_at: new Date(invoice.expirationTime * 1000).toISOString(),
    });
    // The same key again: the same invoice, not a second one.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/payment/makePayment',
      ...a.session,
      payload: { method: 'crypto', idempotency_key: key },
    });
    expect(again.json().data.payment.id).toBe(payment.id);
    expect([...btcpay.invoices.values()].filter((i) => i.metadata.orderId === `pay_${payment.id}`)).toHaveLength(1);
  });

  it('duplicate deliveries and redeliveries credit once', async () => {
    const a = await advertiser();
    const { payment, invoice } = await invoiceFor(a);
    btcpay.pay(invoice.id);
    const hook = btcpay.webhook('InvoiceSettled', invoice.id);
    const first = await deliver(hook);
    expect(first.json()).toEqual({ received: true, outcome: 'credited' });
    expect(await state(a, payment.id)).toMatchObject({ balance: 500, payment: 'succeeded', orders: ['paid'] });
    // The same delivery three times at once, then BTCPay's "Redeliver" (a new deliveryId naming the first).
    const again = await Promise.all([deliver(hook), deliver(hook), deliver(hook)]);
    expect(again.map((r) => r.json().outcome)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    const redelivered = btcpay.webhook('InvoiceSettled', invoice.id, { originalDeliveryId: hook.deliveryId });
    expect((await deliver(redelivered)).json().outcome).toBe('duplicate');
    // Another event about the settled invoice (InvoicePaymentSettled) reads the same truth: nothing more.
    expect((await deliver(btcpay.webhook('InvoicePaymentSettled', invoice.id))).json().outcome).toBe('unchanged');
    expect(await state(a, payment.id)).toMatchObject({ balance: 500, payment: 'succeeded', orders: ['paid'] });
  });

  it('out of order: an event is a hint, the invoice read back decides', async () => {
    const a = await advertiser();
    const { payment, invoice } = await invoiceFor(a);
    // "Settled" arrives while the API still says the payment is unconfirmed: not credited.
    btcpay.pay(invoice.id, { confirmed: false });
    expect((await deliver(btcpay.webhook('InvoiceSettled', invoice.id))).json().outcome).toBe('updated');
    expect(await state(a, payment.id)).toMatchObject({ balance: 0, payment: 'pending', orders: ['pending'] });
    // It confirms; the older InvoiceProcessing and InvoiceCreated events arrive only now: the truth is applied.
    btcpay.pay(invoice.id, { confirmed: true });
    expect((await deliver(btcpay.webhook('InvoiceProcessing', invoice.id))).json().outcome).toBe('credited');
    expect((await deliver(btcpay.webhook('InvoiceCreated', invoice.id))).json().outcome).toBe('unchanged');
    // An expiry event for an invoice that was paid changes nothing either.
    expect((await deliver(btcpay.webhook('InvoiceExpired', invoice.id))).json().outcome).toBe('unchanged');
    expect(await state(a, payment.id)).toMatchObject({ balance: 500, payment: 'succeeded', orders: ['paid'] });
  });

  it('late: after the poll settled it, for an unknown invoice, and money paid after expiry', async () => {
    const a = await advertiser();
    const { payment, invoice } = await invoiceFor(a);
    btcpay.pay(invoice.id);
    await money.settleOpenPayments(t.ctx);
    expect(await state(a, payment.id)).toMatchObject({ balance: 500, payment: 'succeeded' });
    expect((await deliver(btcpay.webhook('InvoiceSettled', invoice.id))).json().outcome).toBe('unchanged');
    expect(await money.balanceOf(t.ctx, a.id)).toBe(500);

    // An invoice of another shop on the same store, or one long gone: ignored, 200 so BTCPay stops.
    const stranger = btcpay.webhook('InvoiceSettled', 'NoSuchInvoice');
    expect((await deliver(stranger)).json()).toEqual({ received: true, outcome: 'ignored' });

    // Expired unpaid; paid later (BTCPay: Expired + PaidLate). Credited once confirmed, as a plain load.
    const b = await advertiser();
    const late = await invoiceFor(b, { cart: false, amount: 1200 });
    btcpay.expire(late.invoice.id);
    expect((await deliver(btcpay.webhook('InvoiceExpired', late.invoice.id))).json().outcome).toBe('failed');
    expect(await state(b, late.payment.id)).toMatchObject({ balance: 0, payment: 'expired' });
    btcpay.pay(late.invoice.id, { confirmed: false });
    const seen = btcpay.webhook('InvoiceReceivedPayment', late.invoice.id, { extra: { afterExpiration: true } });
    expect((await deliver(seen)).json().outcome).toBe('unchanged');
    expect(await money.balanceOf(t.ctx, b.id)).toBe(0);
    btcpay.pay(late.invoice.id, { confirmed: true });
    const confirmed = btcpay.webhook('InvoicePaymentSettled', late.invoice.id, { extra: { afterExpiration: true } });
    expect((await deliver(confirmed)).json().outcome).toBe('credited');
    expect((await deliver(confirmed)).json().outcome).toBe('duplicate');
    expect(await state(b, late.payment.id)).toMatchObject({ balance: 1200, payment: 'succeeded' });
  });

  it('refuses what is badly signed, or not for this store, and writes nothing', async () => {
    const a = await advertiser();
    const { payment, invoice } = await invoiceFor(a);
    btcpay.pay(invoice.id);
    const before = await state(a, payment.id);
    const good = btcpay.webhook('InvoiceSettled', invoice.id);
    const forged = btcpay.webhook('InvoiceSettled', invoice.id, { secret: 'not-the-secret' });
    const tampered = { ...good, body: good.body.replace(invoice.id, `${invoice.id}x`) };
    const unsigned = { body: good.body, headers: { 'content-type': 'application/json' } };
    const malformed = {
      body: good.body,
      headers: { ...good.headers, 'btcpay-sig': good.headers['btcpay-sig'].slice(7) },
    };
    for (const hook of [forged, tampered, unsigned, malformed]) {
      const res = await deliver(hook);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBeTruthy();
    }
    // Signed with our secret but naming another store: refused as unreadable.
    const otherStore = btcpay.webhook('InvoiceSettled', invoice.id, { extra: { storeId: 'someone-else' } });
    expect((await deliver(otherStore)).statusCode).toBe(400);
    expect(await state(a, payment.id)).toEqual(before);
    // The genuine one still works afterwards.
    expect((await deliver(good)).json().outcome).toBe('credited');
  });

  it('BTCPay unreachable: the webhook answers 503 (BTCPay retries) and nothing is recorded', async () => {
    const a = await advertiser();
    const { payment, invoice } = await invoiceFor(a);
    btcpay.pay(invoice.id);
    const hook = btcpay.webhook('InvoiceSettled', invoice.id);
    const before = await state(a, payment.id);
    btcpay.failWith = 502;
    try {
      expect((await deliver(hook)).statusCode).toBe(503);
    } finally {
      btcpay.failWith = null;
    }
    expect(await state(a, payment.id)).toEqual(before);
    expect((await deliver(hook)).json().outcome).toBe('credited');
  });
});

describe('refunds through BTCPay (decision 0423)', () => {
  it('a refund is a pull payment named by our key: made once, its claim link given to the admin', async () => {
    const a = await advertiser();
    const { payment, invoice } = await invoiceFor(a, { cart: false, amount: 2000 });
    btcpay.pay(invoice.id);
    await deliver(btcpay.webhook('InvoiceSettled', invoice.id));
    expect(await money.balanceOf(t.ctx, a.id)).toBe(2000);
    const admin = await createSession(t.ctx, (await createAdvertiser(t.ctx, { role: 'admin' })).account.id);
    const refund = (body: object) =>
      t.app.inject({ method: 'POST', url: '/api/admin/refundLoad', ...admin, payload: body });
    const look = await t.app.inject({ method: 'GET', url: `/api/admin/loads/${payment.id}`, ...admin });
    expect(look.json().data).toMatchObject({ provider: 'btcpay', via: 'provider', refundable: 2000 });

    const body = { payment_id: payment.id, amount: 750, reason: 'overpaid', idempotency_key: crypto.randomUUID() };
    const first = await refund(body);
    expect(first.statusCode, first.body).toBe(200);
    const pulls = btcpay.pullPayments.filter((p) => p.invoiceId === invoice.id);
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatchObject({
      amount: '7.50',
      currency: 'EUR',
      name: `refund ${payment.id}-${body.idempotency_key}`,
    });
    const sent = btcpay.calls.find((c) => c.method === 'POST' && c.path.endsWith(`/invoices/${invoice.id}/refund`));
    expect(sent?.body).toMatchObject({ refundVariant: 'Custom', customAmount: '7.50', customCurrency: 'EUR' });
    expect(first.json().data).toMatchObject({ balance: 1250, refunded: 750, claim_url: pulls[0].viewLink });
    // Again with the same key: no second pull payment, no second booking.
    expect((await refund(body)).json().data).toMatchObject({ balance: 1250, duplicate: true });
    expect(btcpay.pullPayments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(1);

    // BTCPay down: 503, nothing booked, nothing made; then it works with a new key.
    btcpay.failWith = 502;
    try {
      const down = await refund({ ...body, amount: 250, idempotency_key: crypto.randomUUID() });
      expect(down.statusCode).toBe(503);
    } finally {
      btcpay.failWith = null;
    }
    expect(await money.balanceOf(t.ctx, a.id)).toBe(1250);
    expect(btcpay.pullPayments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(1);
  });

  it('an unpaid invoice is not refundable (404), and BTCPay refusing a refund books nothing (422)', async () => {
    const a = await advertiser();
    const { payment, invoice } = await invoiceFor(a, { cart: false, amount: 1000 });
    const admin = await createSession(t.ctx, (await createAdvertiser(t.ctx, { role: 'admin' })).account.id);
    const refund = (body: object) =>
      t.app.inject({ method: 'POST', url: '/api/admin/refundLoad', ...admin, payload: body });
    const key = () => crypto.randomUUID();
    expect((await refund({ payment_id: payment.id, reason: 'not paid', idempotency_key: key() })).statusCode).toBe(404);
    btcpay.pay(invoice.id);
    await deliver(btcpay.webhook('InvoiceSettled', invoice.id));
    // The invoice marked invalid at BTCPay meanwhile: it refuses, we book nothing.
    btcpay.invoices.get(invoice.id)!.status = 'Invalid';
    const body = { payment_id: payment.id, amount: 100, reason: 'refused', idempotency_key: key() };
    const refused = await refund(body);
    expect(refused.statusCode).toBe(422);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(1000);
    // Its intent is cancelled: it holds nothing back.
    const [intent] = await t.ctx.db.select().from(refundIntents).where(eq(refundIntents.paymentId, payment.id));
    expect(intent).toMatchObject({ status: 'cancelled', amount: 100 });
    const look = await t.app.inject({ method: 'GET', url: `/api/admin/loads/${payment.id}`, ...admin });
    expect(look.json().data).toMatchObject({ reversed: 0, refundable: 1000 });
    // Settled again at BTCPay: the same key asks again, and it is made and booked.
    btcpay.invoices.get(invoice.id)!.status = 'Settled';
    const again = await refund(body);
    expect(again.json().data).toMatchObject({ refunded: 100, balance: 900, duplicate: false });
    expect(btcpay.pullPayments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(1);
  });

  it('BTCPay made the refund but its answer was lost: 503, held back as pending, and the same key books it once', async () => {
    const a = await advertiser();
    const { payment, invoice } = await invoiceFor(a, { cart: false, amount: 2000 });
    btcpay.pay(invoice.id);
    await deliver(btcpay.webhook('InvoiceSettled', invoice.id));
    const admin = await createSession(t.ctx, (await createAdvertiser(t.ctx, { role: 'admin' })).account.id);
    const refund = (body: object) =>
      t.app.inject({ method: 'POST', url: '/api/admin/refundLoad', ...admin, payload: body });
    const body = { payment_id: payment.id, amount: 800, reason: 'answer lost', idempotency_key: crypto.randomUUID() };
    const made = proxy.cutNext('POST', /\/refund$/, 'drop');
    const lost = await refund(body);
    await made;
    expect(lost.statusCode).toBe(503);
    // BTCPay made it; we do not know: nothing booked, but the 800 is no longer refundable.
    expect(btcpay.pullPayments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(1);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(2000);
    const look = await t.app.inject({ method: 'GET', url: `/api/admin/loads/${payment.id}`, ...admin });
    expect(look.json().data).toMatchObject({ reversed: 0, refundable: 1200 });
    const more = await refund({ ...body, amount: 1300, idempotency_key: crypto.randomUUID() });
    expect(more.statusCode).toBe(422);
    // Meanwhile the provider's refunds and the ledger's differ (the check sees it).
    expect(await moneyProblems(t.ctx.db, { providerRefunds: pulled() })).toEqual([
      expect.stringMatching(/^provider refunds != ledger refunds/),
    ]);
    // The same key again: BTCPay's refund is found by its name, not made twice, and booked once.
    const again = await refund(body);
    expect(again.statusCode, again.body).toBe(200);
    const pulls = btcpay.pullPayments.filter((p) => p.invoiceId === invoice.id);
    expect(pulls).toHaveLength(1);
    expect(again.json().data).toMatchObject({
      refunded: 800,
      refundable: 1200,
      balance: 1200,
      duplicate: false,
      claim_url: pulls[0].viewLink,
    });
    expect((await refund(body)).json().data).toMatchObject({ balance: 1200, duplicate: true });
  });

  it("an intent nobody asks again is resolved by the minute's settlement, not at once", async () => {
    const a = await advertiser();
    const { payment, invoice } = await invoiceFor(a, { cart: false, amount: 1500 });
    btcpay.pay(invoice.id);
    await deliver(btcpay.webhook('InvoiceSettled', invoice.id));
    const admin = await createSession(t.ctx, (await createAdvertiser(t.ctx, { role: 'admin' })).account.id);
    const body = {
      payment_id: payment.id,
      amount: 500,
      reason: 'nobody retries',
      idempotency_key: crypto.randomUUID(),
    };
    const made = proxy.cutNext('POST', /\/refund$/, 'drop');
    const lost = await t.app.inject({ method: 'POST', url: '/api/admin/refundLoad', ...admin, payload: body });
    await made;
    expect(lost.statusCode).toBe(503);
    const intent = async () =>
      (await t.ctx.db.select().from(refundIntents).where(eq(refundIntents.paymentId, payment.id)))[0];
    // A minute later it may still be on its way: left alone.
    await money.settleOpenPayments(t.ctx);
    expect(await intent()).toMatchObject({ status: 'pending' });
    // Later: asked again by its key, found at BTCPay, booked.
    const clock = t.ctx.now;
    const at = new Date(clock().getTime() + INTENT_RETRY_MS + 1000);
    t.ctx.now = () => at;
    try {
      await money.settleOpenPayments(t.ctx);
    } finally {
      t.ctx.now = clock;
    }
    expect(await intent()).toMatchObject({ status: 'booked', amount: 500 });
    expect(await money.balanceOf(t.ctx, a.id)).toBe(1000);
    expect(btcpay.pullPayments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(1);
  });
});
