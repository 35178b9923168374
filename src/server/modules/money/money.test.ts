// Money must be exact under concurrency, retries and refusals (issue 11, "How it is judged"). Every
// test ends by checking the ledger's invariants: each balance is the sum of its entries, no user balance
// is negative, every transaction sums to zero, all balances together sum to zero.
import crypto from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import {
  cartItems,
  ledgerEntries,
  ledgerTransactions,
  listings,
  orders,
  payments,
  sandboxCardTokens,
} from '../../db/schema';
import { injectClient } from '../../test/api-client';
import { as } from '../../test/as';
import { atClock, hoursFromNow } from '../../test/clock';
import { BERLIN, createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { fundedAdvertiser, sandboxToken } from '../../test/money';
import { positionOf, removeExpiredListings } from '../listings/listings.service';
import * as money from './money.service';

let t: TestApp;
let admin: number;
const PRICE = 10;

beforeAll(async () => {
  t = await createTestApp({
    PRICE_STANDARD_TOPUP: String(PRICE),
    PRICE_ADDITIONAL_LOCATION: '1500',
    MIN_TOPUP: '1000',
  });
  await seedGeo(t.ctx);
  admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await money.ledgerProblems(t.ctx.db)).toEqual([]);
});

const key = () => crypto.randomUUID();

const advertiser = (balance = 0) => fundedAdvertiser(t.ctx, admin, balance);

async function snapshot(userId: number) {
  const [entries] = await t.ctx.db.select({ n: count() }).from(ledgerEntries);
  const [cart] = await t.ctx.db.select({ n: count() }).from(cartItems).where(eq(cartItems.userId, userId));
  const rows = await queryRows<{ bumped_at: string }>(
    t.ctx.db,
    sql`select bumped_at::text from listings where profile_id = ${userId} order by id`,
  );
  return { balance: await money.balanceOf(t.ctx, userId), entries: entries.n, cart: cart.n, listings: rows };
}

const tokenize = (number: string) => sandboxToken(injectClient(t.app), number);

describe('the ledger under concurrency', () => {
  it('50 parallel spends of 10 on a balance of 100 with distinct keys: exactly 10 succeed, the balance is 0', async () => {
    const a = await advertiser(100);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        money.purchase(t.ctx, {
          userId: a.id,
          productCode: 'standard_topup',
          idempotencyKey: key(),
          source: 'checkout',
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(10);
    expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof money.InsufficientBalance)).toBe(true);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(0);
    const [paid] = await t.ctx.db.select({ n: count() }).from(orders).where(eq(orders.userId, a.id));
    expect(paid.n).toBe(10);
  });

  it('the same key sent 50 times in parallel debits once', async () => {
    const a = await advertiser(100);
    const k = key();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        money.purchase(t.ctx, { userId: a.id, productCode: 'standard_topup', idempotencyKey: k, source: 'checkout' }),
      ),
    );
    expect(new Set(results.map((r) => r.orderId)).size).toBe(1);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(90);
  });

  it('makePayment: one key sent 20 times in parallel pays the cart once', async () => {
    const a = await advertiser(100);
    expect((await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' })).statusCode).toBe(200);
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        as(t, a.session).post('/api/payment/makePayment', { method: 'balance', idempotency_key: k }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((r) => r.json().data.order.id)).size).toBe(1);
    expect(answers[0].json().data).toMatchObject({ status: 'paid', balance: 90, position: 1 });
    expect(await money.balanceOf(t.ctx, a.id)).toBe(90);
  });

  it('makePayment: 20 parallel calls with distinct keys buy one cart item once', async () => {
    const a = await advertiser(100);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        as(t, a.session).post('/api/payment/makePayment', { method: 'balance', idempotency_key: key() }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.statusCode === 422)).toHaveLength(19);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(90);
  });
});

describe('cart and checkout', () => {
  it('summarises the cart: amount to pay is 0 when the balance covers it, else at least the minimum top-up', async () => {
    const a = await advertiser(5);
    const res = await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    expect(res.json().data).toMatchObject({
      total: 10,
      balance: 5,
      minimum_topup: 1000,
      amount_to_pay: 1000,
      new_balance: 995,
    });
    // A double click adds the top-up once.
    const again = await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    expect(again.json().data.items).toHaveLength(1);
    const loc = await as(t, a.session).post('/api/payment/addToCart', {
      uid: 'additional_location',
      city_id: BERLIN.id,
    });
    expect(loc.statusCode).toBe(200);
    expect(loc.json().data).toMatchObject({ total: 1510, amount_to_pay: 1505, new_balance: 0 });
    const item = loc.json().data.items.find((i: { product: string }) => i.product === 'additional_location');
    expect(item.city).toEqual({ id: BERLIN.id, name: 'Berlin', country: 'DE' });
    const removed = await as(t, a.session).post('/api/payment/removeCartItem', { uid: item.uid });
    expect(removed.json().data.items).toHaveLength(1);
  });

  it('refuses what it cannot sell: the home city, bad tour dates, an unknown city', async () => {
    const a = await advertiser(0);
    const add = (body: object) => as(t, a.session).post('/api/payment/addToCart', body);
    expect((await add({ uid: 'additional_location', city_id: 2643743 })).json().errors.city_id).toBeDefined();
    expect((await add({ uid: 'additional_location', city_id: 999999 })).json().errors.city_id).toBeDefined();
    const r = await add({ uid: 'additional_location', city_id: BERLIN.id, from: '2099-01-10', until: '2099-01-01' });
    expect(r.statusCode).toBe(422);
    expect((await add({ uid: 'other' })).statusCode).toBe(422);
    expect((await money.getCart(t.ctx, a.id)).items).toEqual([]);
  });

  it('a standard top-up moves the profile to position 1, an additional location lists it in another city for 30 days', async () => {
    await advertiser(0);
    const a = await advertiser(5000);
    expect(await positionOf(t.ctx.db, a.id, new Date())).toBeGreaterThan(1);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'additional_location', city_id: BERLIN.id });
    const paid = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'balance',
      idempotency_key: key(),
      expected_total: 1510,
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data).toMatchObject({ status: 'paid', balance: 3490, position: 1, cart: { items: [] } });
    const berlin = await t.ctx.db.select().from(listings).where(eq(listings.profileId, a.id));
    const extra = berlin.find((l) => l.kind === 'additional')!;
    expect(extra.cityId).toBe(BERLIN.id);
    expect(Math.round((extra.expiresAt!.getTime() - Date.now()) / 86_400_000)).toBe(30);
    await t.ctx.db
      .update(listings)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(listings.id, extra.id));
    await removeExpiredListings(t.ctx.db, t.ctx.now());
    expect((await t.ctx.db.select().from(listings).where(eq(listings.profileId, a.id))).map((l) => l.kind)).toEqual([
      'home',
    ]);
  });

  it("refusals change nothing: insufficient balance, changed prices, someone else's cart item", async () => {
    const a = await advertiser(5);
    const b = await advertiser(100);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    const before = await snapshot(a.id);
    const poor = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'balance',
      idempotency_key: key(),
    });
    expect(poor.statusCode).toBe(422);
    expect(poor.json().errors.balance).toBeDefined();
    const stale = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'balance',
      idempotency_key: key(),
      expected_total: 999,
    });
    expect(stale.json().errors.expected_total).toBeDefined();
    const uid = (await money.getCart(t.ctx, a.id)).items[0].uid;
    const theft = await as(t, b.session).post('/api/payment/removeCartItem', { uid });
    expect(theft.statusCode).toBe(422);
    expect(await snapshot(a.id)).toEqual(before);
    const [o] = await t.ctx.db.select({ n: count() }).from(orders).where(eq(orders.userId, a.id));
    expect(o.n).toBe(0);
  });
});

describe('card payments through the sandbox acquirer', () => {
  it('loads with 4242 and pays the cart in one call; the answer is the same for the same key', async () => {
    const a = await advertiser(0);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    const token = await tokenize('4242 4242 4242 4242');
    const body = { method: 'card', idempotency_key: key(), card_token: token };
    const res = await as(t, a.session).post('/api/payment/makePayment', body);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'paid',
      balance: 990,
      position: 1,
      payment: { method: 'card', status: 'succeeded', amount: 1000, card_last4: '4242' },
    });
    const again = await as(t, a.session).post('/api/payment/makePayment', body);
    expect(again.json().data.order.id).toBe(res.json().data.order.id);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(990);
    // The same key with another amount is another request: refused.
    const other = await as(t, a.session).post('/api/payment/makePayment', { ...body, amount: 5000 });
    expect(other.json().errors.idempotency_key).toBeDefined();
  });

  it('dates the card token, order, payment and ledger lines by the app clock', async () => {
    const a = await advertiser(0);
    // Behind the database: a later test's bump at the real time still ranks above this one.
    const at = hoursFromNow(-2);
    const res = await atClock(t.ctx, at, async () => {
      await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
      const card_token = await tokenize('4242 4242 4242 4242');
      const [token] = await t.ctx.db.select().from(sandboxCardTokens).where(eq(sandboxCardTokens.id, card_token));
      expect(token.createdAt).toEqual(at);
      return as(t, a.session).post('/api/payment/makePayment', {
        method: 'card',
        idempotency_key: key(),
        card_token,
      });
    });
    expect(res.json().data.status).toBe('paid');
    const [order] = await t.ctx.db.select().from(orders).where(eq(orders.userId, a.id));
    const [payment] = await t.ctx.db.select().from(payments).where(eq(payments.userId, a.id));
    expect([order.createdAt, order.paidAt, payment.createdAt, payment.settledAt]).toEqual([at, at, at, at]);
    const lines = await t.ctx.db
      .select({ at: ledgerEntries.createdAt, txAt: ledgerTransactions.createdAt })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(eq(ledgerTransactions.userId, a.id));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect([line.at, line.txAt]).toEqual([at, at]);
  });

  it('a declined card (4000 0000 0000 0002) is refused and changes nothing', async () => {
    const a = await advertiser(0);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    const before = await snapshot(a.id);
    const token = await tokenize('4000000000000002');
    const res = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      idempotency_key: key(),
      card_token: token,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.card_token).toBeDefined();
    expect(await snapshot(a.id)).toEqual(before);
    // An unknown token is refused the same way.
    const bad = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      idempotency_key: key(),
      card_token: 'tok_nothing',
    });
    expect(bad.statusCode).toBe(422);
    expect(await snapshot(a.id)).toEqual(before);
  });

  it('4000 0000 0000 3220 needs the confirmation step; approving it loads and pays once', async () => {
    const a = await advertiser(0);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    const token = await tokenize('4000000000003220');
    const res = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      idempotency_key: key(),
      card_token: token,
      amount: 2500,
      return_path: '/checkout/cart',
    });
    expect(res.json().data).toMatchObject({ status: 'requires_action', balance: 0 });
    const { id, next_action } = res.json().data.payment;
    const page = await as(t).get(next_action.url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('SANDBOX');
    const answered = await as(t).post(next_action.url, 'outcome=approve', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answered.statusCode).toBe(303);
    expect(answered.headers.location).toBe(`/checkout/cart?payment=${id}`);
    const polls = await Promise.all(
      Array.from({ length: 5 }, () => as(t, a.session).get(`/api/payment/getPayment/${id}`)),
    );
    for (const p of polls) expect(p.json().data).toMatchObject({ status: 'paid', balance: 2490 });
    expect(await money.balanceOf(t.ctx, a.id)).toBe(2490);
    // Someone else cannot read it.
    const b = await advertiser(0);
    expect((await as(t, b.session).get(`/api/payment/getPayment/${id}`)).statusCode).toBe(404);
  });
});

describe('crypto payments and webhooks (sandbox)', () => {
  it('an invoice is credited once by its signed webhook, however often it is delivered', async () => {
    const a = await advertiser(0);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    const res = await as(t, a.session).post('/api/payment/makePayment', { method: 'crypto', idempotency_key: key() });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.status).toBe('pending');
    expect(data.payment.invoice).toMatchObject({ crypto_currency: 'BTC' });
    expect(data.payment.invoice.address).toMatch(/^tb1q/);
    const [p] = await t.ctx.db.select().from(payments).where(eq(payments.id, data.payment.id));

    // The screen's "simulate payment" control posts where the invoice says.
    expect(data.payment.invoice.simulate_url).toBe(`/sandbox-acquirer/v1/invoices/${p.providerRef}/simulate-payment`);
    const sim = await as(t).post(data.payment.invoice.simulate_url);
    expect(sim.json()).toEqual({ delivered: 200 });
    expect(await money.balanceOf(t.ctx, a.id)).toBe(990);

    // The very same delivery again, and again in parallel: nothing more.
    const { simulateInvoicePayment } = await import('../sandbox-acquirer/sandbox-acquirer.service');
    const event = await simulateInvoicePayment(t.ctx, p.providerRef!);
    const deliver = (signature: string, body = event.body) =>
      as(t).post('/api/payment/webhook/sandbox', body, {
        headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
      });
    const twice = await Promise.all([deliver(event.signature), deliver(event.signature), deliver(event.signature)]);
    expect(twice.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(990);
    const poll = await as(t, a.session).get(`/api/payment/getPayment/${p.id}`);
    expect(poll.json().data).toMatchObject({ status: 'paid', position: 1 });

    const before = await snapshot(a.id);
    const forged = await deliver(`sha256=${'0'.repeat(64)}`, event.body.replace(/"amount":\d+/, '"amount":999999'));
    expect(forged.statusCode).toBe(401);
    expect((await deliver('')).statusCode).toBe(401);
    expect(await snapshot(a.id)).toEqual(before);
  });

  it('a late payment of an expired invoice is still credited, once', async () => {
    const a = await advertiser(0);
    const res = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'crypto',
      idempotency_key: key(),
      amount: 1200,
    });
    const id = res.json().data.payment.id;
    const [p] = await t.ctx.db.select().from(payments).where(eq(payments.id, id));
    const later = new Date(Date.now() + 2 * 3_600_000);
    const clock = t.ctx.now;
    t.ctx.now = () => later;
    try {
      await money.settleOpenPayments(t.ctx);
      expect((await t.ctx.db.select().from(payments).where(eq(payments.id, id)))[0].status).toBe('expired');
      await as(t).post(`/sandbox-acquirer/v1/invoices/${p.providerRef}/simulate-payment`);
    } finally {
      t.ctx.now = clock;
    }
    expect((await t.ctx.db.select().from(payments).where(eq(payments.id, id)))[0].status).toBe('succeeded');
    expect(await money.balanceOf(t.ctx, a.id)).toBe(1200);
  });
});

describe('bank transfers, adjustments and transactions', () => {
  it('a transfer recorded twice by its bank id credits once; an unknown reference changes nothing', async () => {
    const a = await advertiser(0);
    const adminSession = await createSession(t.ctx, admin);
    const bank = await as(t, a.session).get(`/api/payment/getBankDetails/${a.id}`);
    const reference = bank.json().data.reference as string;
    expect(reference).toMatch(/^DIR\d{8,}$/);
    const body = { reference, amount: 2500, bank_transaction_id: `bank-${key()}` };
    const first = await as(t, adminSession).post('/api/admin/recordBankTransfer', body);
    const second = await as(t, adminSession).post('/api/admin/recordBankTransfer', body);
    expect(first.json().data).toMatchObject({ user_id: a.id, balance: 2500, duplicate: false });
    expect(second.json().data).toMatchObject({ user_id: a.id, balance: 2500, duplicate: true });
    // One digit off: the check digits catch it.
    const typo = reference.slice(0, -1) + String((Number(reference.at(-1)) + 1) % 10);
    const wrong = await as(t, adminSession).post('/api/admin/recordBankTransfer', {
      ...body,
      reference: typo,
      bank_transaction_id: key(),
    });
    expect(wrong.statusCode).toBe(422);
    expect((await as(t, a.session).post('/api/admin/recordBankTransfer', body)).statusCode).toBe(403);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(2500);
  });

  it('an adjustment may not take a balance below zero', async () => {
    const a = await advertiser(50);
    const adminSession = await createSession(t.ctx, admin);
    const res = await as(t, adminSession).post('/api/admin/adjustBalance', {
      user_id: a.id,
      amount: -60,
      reason: 'too much',
      idempotency_key: key(),
    });
    expect(res.statusCode).toBe(422);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(50);
    const ok = await as(t, adminSession).post('/api/admin/adjustBalance', {
      user_id: a.id,
      amount: -50,
      reason: 'refund by hand',
      idempotency_key: key(),
    });
    expect(ok.json().data.balance).toBe(0);
  });

  it('lists date, kind, amount, balance after and reference; owners and admins only; as CSV too', async () => {
    const a = await advertiser(100);
    const b = await advertiser(0);
    await money.purchase(t.ctx, {
      userId: a.id,
      productCode: 'standard_topup',
      idempotencyKey: key(),
      source: 'checkout',
    });
    const mine = await as(t, a.session).post('/api/payment/getTransactions?page=1', { user_id: a.id });
    expect(mine.statusCode).toBe(200);
    const rows = mine.json().data;
    expect(
      rows.map((r: { kind: string; amount: number; balance_after: number }) => [r.kind, r.amount, r.balance_after]),
    ).toEqual([
      ['purchase', -10, 90],
      ['adjustment', 100, 100],
    ]);
    expect(rows[0].reference).toMatch(/^ORD-\d+$/);
    expect(rows[0].products).toEqual(['standard_topup']);
    const before = await snapshot(a.id);
    expect((await as(t, b.session).post('/api/payment/getTransactions', { user_id: a.id })).statusCode).toBe(403);
    expect((await as(t, b.session).get(`/api/payment/getTransactionsCsv?user_id=${a.id}`)).statusCode).toBe(403);
    expect(await snapshot(a.id)).toEqual(before);
    const adminSession = await createSession(t.ctx, admin);
    expect((await as(t, adminSession).post('/api/payment/getTransactions', { user_id: a.id })).json().total).toBe(2);
    const csv = await as(t, a.session).get(`/api/payment/getTransactionsCsv?user_id=${a.id}`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('date,kind,amount,balance_after,currency,reference,products,method');
    expect(lines[1]).toMatch(/^[^,]+,purchase,-0\.10,0\.90,EUR,ORD-\d+,standard_topup,$/);
    expect(lines[2]).toMatch(/,adjustment,1\.00,1\.00,EUR,test,,$/);
  });

  it('admins set prices; the cart uses them from then on', async () => {
    const adminSession = await createSession(t.ctx, admin);
    const a = await advertiser(0);
    expect(
      (await as(t, a.session).post('/api/admin/products', { code: 'standard_topup', price: 700 })).statusCode,
    ).toBe(403);
    const res = await as(t, adminSession).post('/api/admin/products', { code: 'standard_topup', price: 700 });
    expect(res.json().data.find((p: { code: string }) => p.code === 'standard_topup').price).toBe(700);
    const pub = await as(t).get('/api/payment/products');
    expect(pub.json()).toMatchObject({ currency: 'EUR', minimum_topup: 1000 });
    await as(t, adminSession).post('/api/admin/products', { code: 'standard_topup', price: PRICE });
  });
});
