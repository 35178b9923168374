// The Verotel FlexPay adapter (providers/verotel.ts, decision 0420) against a local stand-in of its Order
// Page and postback (src/server/test/verotel-stand-in.ts): the buyer pays on Verotel's page, comes back to
// our screen, and only the signed postback credits. A sale credits once however often its postback
// comes, a decline or an abandoned page credits nothing, a late postback still credits, a postback with a
// bad signature, for another shop or from an address Verotel does not send from is refused and writes
// nothing. Refunds and chargebacks (event=credit|chargeback) are booked once (decision 0423). Each with
// its ledger effect asserted.
import crypto from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, orders, paymentEvents, payments } from '../../db/schema';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { moneyProblems } from '../../test/money';
import { startVerotelStandIn, type VerotelStandIn } from '../../test/verotel-stand-in';
import * as money from './money.service';
import { flexpaySignature, PAGE_HOURS } from './providers/verotel';

let t: TestApp;
let verotel: VerotelStandIn;
const PRICE = 500;
const POSTBACK_IP = '203.0.113.7';

beforeAll(async () => {
  verotel = await startVerotelStandIn();
  t = await createTestApp({
    PRICE_STANDARD_TOPUP: String(PRICE),
    MIN_TOPUP: '1000',
    CARD_PROVIDER: 'verotel',
    VEROTEL_URL: verotel.url,
    VEROTEL_SHOP_ID: verotel.shopId,
    VEROTEL_SIGNATURE_KEY: verotel.signatureKey,
    VEROTEL_TEST_MODE: 'true',
    VEROTEL_POSTBACK_IPS: `198.51.100.1, ${POSTBACK_IP}`,
  });
  await seedGeo(t.ctx);
});
afterAll(async () => {
  await t.close();
  await verotel.close();
});
// What Verotel refunded (credits made in its Control Center) must be what our ledger refunded, per sale.
const verotelRefunds = () =>
  verotel.reversals
    .filter((r) => r.event === 'credit')
    .map((r) => ({ provider: 'verotel', ref: r.saleID, amount: Math.round(Number(r.priceAmount) * 100) }));
afterEach(async () => {
  expect(await moneyProblems(t.ctx.db, { providerRefunds: verotelRefunds() })).toEqual([]);
});

async function advertiser() {
  const { account } = await createAdvertiser(t.ctx, { bumpedAt: new Date(Date.now() - 86_400_000) });
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}
type Advertiser = Awaited<ReturnType<typeof advertiser>>;

/** makePayment by card (no token: the card goes on Verotel's page), then the buyer opens the page. */
async function checkout(a: Advertiser, opts: { purpose?: 'load' | 'cart'; cart?: boolean; amount?: number } = {}) {
  if (opts.cart)
    await t.app.inject({
      method: 'POST',
      url: '/api/payment/addToCart',
      ...a.session,
      payload: { uid: 'standard_topup' },
    });
  const key = crypto.randomUUID();
  const body = {
    method: 'card',
    idempotency_key: key,
    return_path: opts.purpose === 'load' ? `/edit/load/${a.id}` : '/checkout/method',
    ...(opts.purpose ? { purpose: opts.purpose } : {}),
    ...(opts.amount ? { amount: opts.amount } : {}),
  };
  const res = await t.app.inject({ method: 'POST', url: '/api/payment/makePayment', ...a.session, payload: body });
  expect(res.statusCode).toBe(200);
  const data = res.json().data;
  expect(data.status).toBe('requires_action');
  const page = await verotel.open(data.payment.next_action.url);
  expect(page.status).toBe(200);
  return { key, body, data, paymentId: data.payment.id as number, sale: page.sale! };
}

const postback = (query: string, ip = POSTBACK_IP) =>
  t.app.inject({ method: 'GET', url: `/api/payment/webhook/verotel?${query}`, remoteAddress: ip });

async function state(a: Advertiser, paymentId: number) {
  const [p] = await t.ctx.db.select().from(payments).where(eq(payments.id, paymentId));
  const [events] = await t.ctx.db.select({ n: count() }).from(paymentEvents);
  const userOrders = await t.ctx.db.select({ status: orders.status }).from(orders).where(eq(orders.userId, a.id));
  const cart = await t.ctx.db.select({ n: count() }).from(cartItems).where(eq(cartItems.userId, a.id));
  return {
    balance: await money.balanceOf(t.ctx, a.id),
    payment: p.status,
    ref: p.providerRef,
    orders: userOrders.map((o) => o.status),
    cart: cart[0].n,
    events: events.n,
  };
}

async function later(hours: number, run: () => Promise<unknown>) {
  const clock = t.ctx.now;
  const at = new Date(clock().getTime() + hours * 3_600_000);
  t.ctx.now = () => at;
  try {
    return await run();
  } finally {
    t.ctx.now = clock;
  }
}

describe('Verotel FlexPay adapter against a local stand-in', () => {
  it('signs as FlexPay documents: SHA-256 of the key and the sorted name=value pairs, lowercase hex', () => {
    // The documentation's example: key "aaB", shopID 123, custom1 xyz, custom2 empty.
    expect(flexpaySignature('aaB', { shopID: '123', custom1: 'xyz', custom2: '' })).toBe(
      crypto.createHash('sha256').update('aaB:custom1=xyz:custom2=:shopID=123').digest('hex'),
    );
  });

  it('sends the buyer to a signed Order Page with the documented parameters, the same one on a retry', async () => {
    const a = await advertiser();
    const { key, body, data, paymentId, sale } = await checkout(a, { purpose: 'load', amount: 1250 });
    const url = new URL(data.payment.next_action.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${verotel.url}/startorder`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      version: '4',
      shopID: verotel.shopId,
      type: 'purchase',
      priceAmount: '12.50',
      priceCurrency: 'EUR',
      description: `Advertising credits pay_${paymentId}`,
      referenceID: `pay_${paymentId}`,
      paymentMethod: 'CC',
      successURL: expect.stringMatching(new RegExp(`/edit/load/${a.id}\\?payment=${paymentId}$`)),
      declineURL: expect.stringMatching(new RegExp(`/edit/load/${a.id}\\?payment=${paymentId}$`)),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(sale).toMatchObject({ referenceID: `pay_${paymentId}`, priceAmount: '12.50', status: 'open' });
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'requires_action' });
    // The same key again: the same payment and page; no card field ever reached us.
    const again = await t.app.inject({ method: 'POST', url: '/api/payment/makePayment', ...a.session, payload: body });
    expect(again.json().data.payment).toMatchObject({ id: paymentId, next_action: data.payment.next_action });
    expect(key).toBeTruthy();
  });

  it('a tampered Order Page address is refused by Verotel', async () => {
    const a = await advertiser();
    const { data } = await checkout(a, { purpose: 'load' });
    const url = new URL(data.payment.next_action.url);
    url.searchParams.set('priceAmount', '0.01');
    expect((await verotel.open(url.toString())).status).toBe(400);
  });

  it('a sale: the buyer comes back to Load Credits, the postback credits once; a load leaves the cart', async () => {
    const a = await advertiser();
    const { paymentId, sale } = await checkout(a, { purpose: 'load', cart: true });
    const { redirect, postback: query } = verotel.approve(sale.saleID);
    expect(redirect).toMatch(new RegExp(`/edit/load/${a.id}\\?payment=${paymentId}$`));
    // Back on our screen before the postback: nothing is credited yet.
    const before = await t.app.inject({ method: 'GET', url: `/api/payment/getPayment/${paymentId}`, ...a.session });
    expect(before.json().data).toMatchObject({ status: 'requires_action', balance: 0 });

    const res = await postback(query);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('OK');
    const after = await state(a, paymentId);
    expect(after).toMatchObject({ balance: 1000, payment: 'succeeded', ref: sale.saleID, orders: [], cart: 1 });

    // A duplicate postback: OK again, credited once, no second event.
    const dup = await postback(query);
    expect(dup.body).toBe('OK');
    expect(await state(a, paymentId)).toEqual(after);
    const read = await t.app.inject({ method: 'GET', url: `/api/payment/getPayment/${paymentId}`, ...a.session });
    expect(read.json().data).toMatchObject({ status: 'loaded', balance: 1000 });
  });

  it('a cart paid by card completes when the postback credits it', async () => {
    const a = await advertiser();
    const { paymentId, sale } = await checkout(a, { cart: true });
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, orders: ['pending'], cart: 1 });
    expect((await postback(verotel.approve(sale.saleID).postback)).body).toBe('OK');
    expect(await state(a, paymentId)).toMatchObject({
      balance: 1000 - PRICE,
      payment: 'succeeded',
      orders: ['paid'],
      cart: 0,
    });
  });

  it('a decline sends no postback: nothing is credited, and the payment expires with its page', async () => {
    const a = await advertiser();
    const { paymentId, sale } = await checkout(a, { cart: true });
    const { redirect } = verotel.decline(sale.saleID);
    expect(redirect).toMatch(new RegExp(`/checkout/method\\?payment=${paymentId}$`));
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'requires_action', orders: ['pending'] });
    await later(PAGE_HOURS - 0.5, () => money.settleOpenPayments(t.ctx));
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'requires_action' });
    await later(PAGE_HOURS + 0.5, () => money.settleOpenPayments(t.ctx));
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'expired', orders: ['failed'], cart: 1 });
  });

  it('an abandoned page credits nothing; a postback after it expired still credits (the money was taken)', async () => {
    const a = await advertiser();
    const { paymentId, sale } = await checkout(a, { cart: true });
    await later(PAGE_HOURS + 1, () => money.settleOpenPayments(t.ctx));
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'expired', orders: ['failed'] });

    const late = await postback(verotel.approve(sale.saleID).postback);
    expect(late.body).toBe('OK');
    // The credits are the advertiser's; the order it was for stays failed and the cart as it was.
    expect(await state(a, paymentId)).toMatchObject({
      balance: 1000,
      payment: 'succeeded',
      orders: ['failed'],
      cart: 1,
    });
  });

  it('a postback with a bad or missing signature is refused with 401 and writes nothing', async () => {
    const a = await advertiser();
    const { paymentId, sale } = await checkout(a, { purpose: 'load' });
    const before = await state(a, paymentId);
    const forged = verotel.approve(sale.saleID, { key: 'not-the-key' }).postback;
    const r1 = await postback(forged);
    expect(r1.statusCode).toBe(401);
    expect(r1.json()).toMatchObject({ message: 'Bad signature.' });
    // The amount changed after signing.
    const tampered = verotel.approve(sale.saleID).postback.replace('priceAmount=10.00', 'priceAmount=99.00');
    expect((await postback(tampered)).statusCode).toBe(401);
    const unsigned = new URLSearchParams(verotel.approve(sale.saleID).postback);
    unsigned.delete('signature');
    expect((await postback(unsigned.toString())).statusCode).toBe(401);
    expect(await state(a, paymentId)).toEqual(before);
  });

  it('a postback from a wrong source or for another shop is refused and writes nothing', async () => {
    const a = await advertiser();
    const { paymentId, sale } = await checkout(a, { purpose: 'load' });
    const before = await state(a, paymentId);
    const good = verotel.approve(sale.saleID).postback;
    const stranger = await postback(good, '192.0.2.99');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json()).toMatchObject({ message: 'This notification did not come from an allowed address.' });
    // Signed with our key, but about another website of the merchant.
    const other = verotel.approve(sale.saleID, { extra: { shopID: '1' } }).postback;
    expect((await postback(other)).statusCode).toBe(400);
    // Not in the site's currency.
    const usd = verotel.approve(sale.saleID, { extra: { priceCurrency: 'USD' } }).postback;
    expect((await postback(usd)).statusCode).toBe(400);
    expect(await state(a, paymentId)).toEqual(before);
    // From Verotel's address, the same postback credits.
    expect((await postback(good)).body).toBe('OK');
    expect(await state(a, paymentId)).toMatchObject({ balance: 1000, payment: 'succeeded' });
  });

  it('a postback of less than the payment credits nothing', async () => {
    const a = await advertiser();
    const { paymentId, sale } = await checkout(a, { purpose: 'load' });
    const short = verotel.approve(sale.saleID, { extra: { priceAmount: '5.00' } }).postback;
    expect((await postback(short)).body).toBe('OK');
    expect(await state(a, paymentId)).toMatchObject({ balance: 0, payment: 'requires_action' });
  });

  it('a refund (credit) and a chargeback postback are each booked once; beyond the sale together, flagged; a chargeback holds', async () => {
    const a = await advertiser();
    const { paymentId, sale } = await checkout(a, { purpose: 'load' });
    await postback(verotel.approve(sale.saleID).postback);
    const credited = await state(a, paymentId);
    // Refunded in Verotel's Control Center: its credit postback books it, once.
    const credit = verotel.reverse('credit', sale.saleID, '3.00').postback;
    expect((await postback(credit)).body).toBe('OK');
    expect((await postback(credit)).body).toBe('OK');
    expect(await money.balanceOf(t.ctx, a.id)).toBe(credited.balance - 300);
    expect((await state(a, paymentId)).events).toBe(credited.events + 1);

    // Our admin cannot record a Verotel refund by hand (it would be booked twice): the screen says where.
    const admin = await createAdvertiser(t.ctx, { role: 'admin' });
    const adminSession = await createSession(t.ctx, admin.account.id);
    const load = await t.app.inject({ method: 'GET', url: `/api/admin/loads/${paymentId}`, ...adminSession });
    expect(load.json().data).toMatchObject({ via: 'at_provider', reversed: 300 });
    const byHand = await t.app.inject({
      method: 'POST',
      url: '/api/admin/refundLoad',
      ...adminSession,
      payload: { payment_id: paymentId, amount: 100, reason: 'by hand', idempotency_key: crypto.randomUUID() },
    });
    expect(byHand.statusCode).toBe(422);

    // A chargeback of 100 more than is left: the bank took it, so it is booked; the 100 beyond the sale is
    // charged to her and flagged, and the account held.
    const rest = credited.balance - 300;
    const first = verotel.reverse('chargeback', sale.saleID, ((rest + 100) / 100).toFixed(2));
    expect((await postback(first.postback)).body).toBe('OK');
    expect(await money.balanceOf(t.ctx, a.id)).toBe(-100);
    const data = await t.app.inject({ method: 'GET', url: '/api/payment/getData', ...a.session });
    expect(data.json().data.hold).toMatchObject({ reason: 'chargeback' });
    const held = await t.app.inject({ method: 'GET', url: '/api/admin/heldAccounts', ...adminSession });
    expect(held.json().data).toContainEqual(expect.objectContaining({ user_id: a.id, beyond_load: 100 }));
    // Chargebacks beyond the sale itself: not something Verotel sends; recorded, not booked.
    const bogus = verotel.sign({
      event: 'chargeback',
      shopID: verotel.shopId,
      saleID: sale.saleID,
      transactionID: '9003',
      priceAmount: (rest / 100).toFixed(2),
      priceCurrency: 'EUR',
      type: 'purchase',
    });
    expect((await postback(bogus)).body).toBe('OK');
    expect(await money.balanceOf(t.ctx, a.id)).toBe(-100);
    const outcomes = await t.ctx.db
      .select({ id: paymentEvents.eventId, outcome: paymentEvents.outcome })
      .from(paymentEvents)
      .where(eq(paymentEvents.paymentId, paymentId));
    expect(Object.fromEntries(outcomes.map((o) => [o.id, o.outcome]))).toMatchObject({
      [`credit:${verotel.reversals[verotel.reversals.length - 2].transactionID}`]: 'reversed',
      [`chargeback:${first.reversal.transactionID}`]: 'reversed',
      'chargeback:9003': 'too_much',
    });
  });

  it('a postback naming an unknown reference is kept for an admin; the same sale with the right one then credits once', async () => {
    const a = await advertiser();
    const { paymentId, sale } = await checkout(a, { purpose: 'load' });
    const before = await state(a, paymentId);
    // Signed by Verotel, but its referenceID is no payment of ours (a merchant's mistake, another site's).
    const wrong = verotel.approve(sale.saleID, { extra: { referenceID: 'pay_999999999' } }).postback;
    const first = await postback(wrong);
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('OK');
    expect((await postback(wrong)).body).toBe('OK');
    // Nothing credited, nothing recorded under its transaction id; listed for the admins (once, two deliveries).
    expect(await state(a, paymentId)).toEqual(before);
    const admin = await createSession(t.ctx, (await createAdvertiser(t.ctx, { role: 'admin' })).account.id);
    const listed = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/admin/heldAccounts', ...admin }))
        .json()
        .unmatched.filter((u: { event_id: string }) => u.event_id === `purchase:${sale.transactionID}`);
    expect(await listed()).toEqual([
      expect.objectContaining({
        provider: 'verotel',
        type: 'purchase',
        reference: `pay_999999999 ${sale.saleID}`,
        amount: 1000,
        deliveries: 2,
      }),
    ]);

    // The same transaction naming the right payment: credited, once.
    const right = verotel.approve(sale.saleID).postback;
    expect((await postback(right)).body).toBe('OK');
    const after = await state(a, paymentId);
    expect(after).toMatchObject({ balance: 1000, payment: 'succeeded', events: before.events + 1 });
    expect(await listed()).toEqual([]);
    // Its redelivery is a duplicate; the wrong one again changes nothing either.
    expect((await postback(right)).body).toBe('OK');
    expect((await postback(wrong)).body).toBe('OK');
    expect(await state(a, paymentId)).toEqual(after);
  });

  it('a chargeback naming a sale we do not know is kept for an admin, with its amount', async () => {
    const unknown = verotel.sign({
      event: 'chargeback',
      shopID: verotel.shopId,
      saleID: '123456789',
      transactionID: '9100',
      priceAmount: '25.00',
      priceCurrency: 'EUR',
      type: 'purchase',
    });
    const res = await postback(unknown);
    expect(res.body).toBe('OK');
    const [events] = await t.ctx.db
      .select({ n: count() })
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, 'chargeback:9100'));
    expect(events.n).toBe(0);
    const admin = await createSession(t.ctx, (await createAdvertiser(t.ctx, { role: 'admin' })).account.id);
    const held = await t.app.inject({ method: 'GET', url: '/api/admin/heldAccounts', ...admin });
    expect(held.json().unmatched).toContainEqual(
      expect.objectContaining({
        event_id: 'chargeback:9100',
        type: 'chargeback',
        reference: '123456789',
        amount: 2500,
      }),
    );
  });

  it('shows the provider and its test mode; the card form is the provider page', async () => {
    const a = await advertiser();
    const res = await t.app.inject({ method: 'GET', url: '/api/payment/getData', ...a.session });
    expect(res.json().data.methods.card).toEqual({
      provider: 'verotel',
      sandbox: false,
      test_mode: true,
      hosted: true,
      tokenize_url: '',
    });
    // The admin money screen reads the providers from the products.
    const products = await t.app.inject({ method: 'GET', url: '/api/payment/products' });
    expect(products.json().providers).toEqual({
      card: { name: 'verotel', sandbox: false, test_mode: true },
      crypto: { name: 'sandbox', sandbox: true, test_mode: true },
    });
  });
});
