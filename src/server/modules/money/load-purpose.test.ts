// makePayment's purpose (issue 23 item 3; docs/decisions/0406): a card or crypto load (`purpose: 'load'`)
// puts credits on the balance and leaves a full cart exactly as it was, when the call answers and after
// the acquirer's confirmation step, the sandbox's signed webhook, BTCPay's webhook and the minute poll;
// a `cart` payment, and the spec's call without a purpose, still load what is missing and pay the cart.
import crypto from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { cartItems, orders, payments } from '../../db/schema';
import { startBtcpayStandIn, type StandIn } from '../../test/btcpay-stand-in';
import { injectClient } from '../../test/api-client';
import { as } from '../../test/as';
import { BERLIN, createAdvertiser, createSession, seedGeo, type Session } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { sandboxToken } from '../../test/money';
import * as money from './money.service';

const TOPUP = 500;
const LOCATION = 1500;
const MIN = 1000;
const prices = {
  PRICE_STANDARD_TOPUP: String(TOPUP),
  PRICE_ADDITIONAL_LOCATION: String(LOCATION),
  MIN_TOPUP: String(MIN),
};

const key = () => crypto.randomUUID();
interface Advertiser {
  id: number;
  session: Session;
}

/** Helpers bound to one app (the sandbox one, or the one whose crypto is BTCPay). */
function on(get: () => TestApp) {
  /** A listed advertiser whose cart holds a standard top-up and a location in Berlin (2000 in all). */
  async function withFullCart(balance = 0): Promise<Advertiser> {
    const t = get();
    const { account } = await createAdvertiser(t.ctx, { bumpedAt: new Date(Date.now() - 86_400_000) });
    const a = { id: account.id, session: await createSession(t.ctx, account.id) };
    if (balance) {
      const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
      await money.adjustBalance(t.ctx, {
        actor: { id: admin },
        userId: a.id,
        amount: balance,
        reason: 'test',
        idempotencyKey: key(),
      });
    }
    expect((await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' })).statusCode).toBe(200);
    const res = await as(t, a.session).post('/api/payment/addToCart', {
      uid: 'additional_location',
      city_id: BERLIN.id,
    });
    expect(res.json().data).toMatchObject({ total: TOPUP + LOCATION });
    return a;
  }

  /** What a load must not touch: the cart's rows, the orders, the listings (a top-up bumps them). */
  async function untouched(a: Advertiser) {
    const db = get().ctx.db;
    const cart = await db
      .select({ uid: cartItems.uid, productCode: cartItems.productCode, params: cartItems.params })
      .from(cartItems)
      .where(eq(cartItems.userId, a.id))
      .orderBy(asc(cartItems.uid));
    const orderRows = await db.select({ id: orders.id }).from(orders).where(eq(orders.userId, a.id));
    const listingRows = await queryRows<{ kind: string; bumped_at: string }>(
      db,
      sql`select kind, bumped_at::text from listings where profile_id = ${a.id} order by id`,
    );
    return { cart, orders: orderRows.length, listings: listingRows };
  }

  const balance = (a: Advertiser) => money.balanceOf(get().ctx, a.id);
  const paymentRow = async (id: number) => (await get().ctx.db.select().from(payments).where(eq(payments.id, id)))[0];

  const tokenize = (number: string) => sandboxToken(injectClient(get().app), number);
  return { withFullCart, untouched, balance, paymentRow, tokenize };
}

// ---------------------------------------------------------------- sandbox card and crypto

let t: TestApp;
const s = on(() => t);

describe('purpose load: the sandbox card and crypto', () => {
  beforeAll(async () => {
    t = await createTestApp(prices);
    await seedGeo(t.ctx);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    expect(await money.ledgerProblems(t.ctx.db)).toEqual([]);
  });

  it('a card load (4242) credits the balance and leaves a full cart, even one the balance covers', async () => {
    const a = await s.withFullCart();
    const before = await s.untouched(a);
    expect(before.cart).toHaveLength(2);
    const body = {
      method: 'card',
      purpose: 'load',
      idempotency_key: key(),
      card_token: await s.tokenize('4242424242424242'),
    };
    const res = await as(t, a.session).post('/api/payment/makePayment', body);
    expect(res.statusCode, res.body).toBe(200);
    // The minimum top-up by default (not the cart's amount to pay), and no order.
    expect(res.json().data).toMatchObject({
      status: 'loaded',
      order: null,
      balance: MIN,
      payment: { method: 'card', status: 'succeeded', amount: MIN },
      cart: { total: TOPUP + LOCATION, balance: MIN },
    });
    expect(res.json().data.cart.items).toHaveLength(2);
    expect(await s.untouched(a)).toEqual(before);
    // The same call again: the same load, nothing more.
    const again = await as(t, a.session).post('/api/payment/makePayment', body);
    expect(again.json().data).toMatchObject({ status: 'loaded', payment: { id: res.json().data.payment.id } });

    // The balance now covers a cheaper cart: a load still charges the card and pays nothing.
    const b = await s.withFullCart(5000);
    const covered = await s.untouched(b);
    const load = await as(t, b.session).post('/api/payment/makePayment', {
      method: 'card',
      purpose: 'load',
      amount: 1200,
      idempotency_key: key(),
      card_token: await s.tokenize('4242424242424242'),
    });
    expect(load.json().data).toMatchObject({ status: 'loaded', balance: 6200, payment: { amount: 1200 } });
    expect(await s.untouched(b)).toEqual(covered);
    expect(await s.balance(b)).toBe(6200);
  });

  it('a card load with the confirmation step (3220) leaves the cart after approval and the minute poll', async () => {
    const a = await s.withFullCart();
    const before = await s.untouched(a);
    const res = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      purpose: 'load',
      amount: 2500,
      idempotency_key: key(),
      card_token: await s.tokenize('4000000000003220'),
      return_path: '/edit/load/1',
    });
    expect(res.json().data).toMatchObject({ status: 'requires_action', balance: 0, order: null });
    const { id, next_action } = res.json().data.payment;
    const answered = await as(t).post(next_action.url, 'outcome=approve', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answered.statusCode).toBe(303);
    await money.settleOpenPayments(t.ctx);
    const poll = await as(t, a.session).get(`/api/payment/getPayment/${id}`);
    expect(poll.json().data).toMatchObject({ status: 'loaded', balance: 2500, order: null });
    expect(poll.json().data.cart.items).toHaveLength(2);
    expect(await s.untouched(a)).toEqual(before);
    expect((await s.paymentRow(id)).details).toMatchObject({ purpose: 'load' });
  });

  it('a crypto load credits by its signed webhook and leaves the cart, however often it is delivered', async () => {
    const a = await s.withFullCart();
    const before = await s.untouched(a);
    const res = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'crypto',
      purpose: 'load',
      idempotency_key: key(),
      amount: 1000,
    });
    expect(res.json().data).toMatchObject({ status: 'pending', order: null, payment: { amount: 1000 } });
    const p = await s.paymentRow(res.json().data.payment.id);
    const sim = await as(t).post(res.json().data.payment.invoice.simulate_url);
    expect(sim.json()).toEqual({ delivered: 200 });
    const { simulateInvoicePayment } = await import('../sandbox-acquirer/sandbox-acquirer.service');
    const event = await simulateInvoicePayment(t.ctx, p.providerRef!);
    const redelivered = await as(t).post('/api/payment/webhook/sandbox', event.body, {
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': event.signature },
    });
    expect(redelivered.statusCode).toBe(200);
    await money.settleOpenPayments(t.ctx);
    expect(await s.balance(a)).toBe(1000);
    const poll = await as(t, a.session).get(`/api/payment/getPayment/${p.id}`);
    expect(poll.json().data).toMatchObject({ status: 'loaded', balance: 1000, order: null });
    expect(await s.untouched(a)).toEqual(before);
  });

  it('purpose cart, and the spec call without a purpose, load what is missing and pay the cart', async () => {
    for (const purpose of ['cart', undefined]) {
      const a = await s.withFullCart();
      const res = await as(t, a.session).post('/api/payment/makePayment', {
        method: 'card',
        ...(purpose ? { purpose } : {}),
        idempotency_key: key(),
        expected_total: TOPUP + LOCATION,
        card_token: await s.tokenize('4242424242424242'),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        status: 'paid',
        balance: 0,
        position: 1,
        order: { status: 'paid', total: TOPUP + LOCATION },
        payment: { amount: TOPUP + LOCATION },
        cart: { items: [] },
      });
      expect((await s.untouched(a)).listings.map((l) => l.kind)).toEqual(['home', 'additional']);
    }
    // Crypto for the cart: paid when its webhook arrives.
    const b = await s.withFullCart();
    const res = await as(t, b.session).post('/api/payment/makePayment', {
      method: 'crypto',
      purpose: 'cart',
      idempotency_key: key(),
    });
    expect(res.json().data).toMatchObject({ status: 'pending', order: { status: 'pending' } });
    await as(t).post(res.json().data.payment.invoice.simulate_url);
    const poll = await as(t, b.session).get(`/api/payment/getPayment/${res.json().data.payment.id}`);
    expect(poll.json().data).toMatchObject({ status: 'paid', balance: 0, cart: { items: [] } });
  });

  it('refuses a load from the balance, a key reused for the other purpose, an unknown purpose, a tiny load', async () => {
    const a = await s.withFullCart(3000);
    const before = { ...(await s.untouched(a)), balance: await s.balance(a) };
    const pay = (body: object) => as(t, a.session).post('/api/payment/makePayment', body);
    const fromBalance = await pay({ method: 'balance', purpose: 'load', idempotency_key: key() });
    expect(fromBalance.statusCode).toBe(422);
    expect(fromBalance.json().errors.purpose).toBeDefined();
    expect(
      (await pay({ method: 'crypto', purpose: 'shop', idempotency_key: key() })).json().errors.purpose,
    ).toBeDefined();
    const tiny = await pay({ method: 'crypto', purpose: 'load', amount: MIN - 1, idempotency_key: key() });
    expect(tiny.json().errors.amount).toBeDefined();
    expect({ ...(await s.untouched(a)), balance: await s.balance(a) }).toEqual(before);

    // One key, one intent: a load's key cannot then pay the cart, nor the other way round.
    const k = key();
    const load = await pay({ method: 'crypto', purpose: 'load', amount: MIN, idempotency_key: k });
    expect(load.json().data).toMatchObject({ status: 'pending', order: null });
    const reused = await pay({ method: 'crypto', purpose: 'cart', amount: MIN, idempotency_key: k });
    expect(reused.json().errors.idempotency_key).toBeDefined();
    const spec = await pay({ method: 'crypto', amount: MIN, idempotency_key: k });
    expect(spec.json().errors.idempotency_key).toBeDefined();
    expect(await s.untouched(a)).toEqual({ cart: before.cart, orders: 0, listings: before.listings });
  });
});

// ---------------------------------------------------------------- BTCPay

let b: TestApp;
let btcpay: StandIn;
const bt = on(() => b);

describe('purpose load: BTCPay', () => {
  beforeAll(async () => {
    btcpay = await startBtcpayStandIn();
    b = await createTestApp({
      ...prices,
      CRYPTO_PROVIDER: 'btcpay',
      BTCPAY_URL: btcpay.url,
      BTCPAY_STORE_ID: btcpay.storeId,
      BTCPAY_API_KEY: btcpay.apiKey,
      BTCPAY_WEBHOOK_SECRET: btcpay.webhookSecret,
    });
    await seedGeo(b.ctx);
  });
  afterAll(async () => {
    await b.close();
    await btcpay.close();
  });
  afterEach(async () => {
    expect(await money.ledgerProblems(b.ctx.db)).toEqual([]);
  });

  const deliver = (hook: { body: string; headers: Record<string, string> }) =>
    as(b).post('/api/payment/webhook/btcpay', hook.body, { headers: hook.headers });

  it('a load is credited by its webhook and the cart stays; a cart payment is paid by its webhook', async () => {
    const a = await bt.withFullCart();
    const before = await bt.untouched(a);
    const res = await as(b, a.session).post('/api/payment/makePayment', {
      method: 'crypto',
      purpose: 'load',
      amount: 1200,
      idempotency_key: key(),
    });
    expect(res.json().data).toMatchObject({ status: 'pending', order: null });
    const p = await bt.paymentRow(res.json().data.payment.id);
    btcpay.pay(p.providerRef!);
    const hook = btcpay.webhook('InvoiceSettled', p.providerRef!);
    expect((await deliver(hook)).json()).toEqual({ received: true, outcome: 'credited' });
    expect((await deliver(hook)).json().outcome).toBe('duplicate');
    await money.settleOpenPayments(b.ctx);
    expect(await bt.balance(a)).toBe(1200);
    const poll = await as(b, a.session).get(`/api/payment/getPayment/${p.id}`);
    expect(poll.json().data).toMatchObject({ status: 'loaded', balance: 1200, order: null });
    expect(await bt.untouched(a)).toEqual(before);

    // The same advertiser now pays the cart: what is missing (800) is loaded and the cart is paid.
    const pay = await as(b, a.session).post('/api/payment/makePayment', {
      method: 'crypto',
      purpose: 'cart',
      idempotency_key: key(),
    });
    expect(pay.json().data).toMatchObject({ status: 'pending', payment: { amount: MIN } });
    const q = await bt.paymentRow(pay.json().data.payment.id);
    btcpay.pay(q.providerRef!);
    expect((await deliver(btcpay.webhook('InvoiceSettled', q.providerRef!))).json().outcome).toBe('credited');
    const paid = await as(b, a.session).get(`/api/payment/getPayment/${q.id}`);
    expect(paid.json().data).toMatchObject({
      status: 'paid',
      balance: 1200 + MIN - TOPUP - LOCATION,
      cart: { items: [] },
    });
  });
});
