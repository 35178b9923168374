// One lock order for every money path (decision 0401, issue 21 item 1). A balance payment used to lock
// the cart then the ledger while a card settlement locked the ledger then the cart: on PostgreSQL one
// of them was aborted as a deadlock and answered 500. Here the two are held at those points by the
// test-only pause hooks (fault.ts) so the interleaving happens every time, not by chance. What still
// fails as a serialisation failure or deadlock is retried in the server, and answered 503 with
// Retry-After when it keeps failing: never 500.
import crypto from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { cartItems, ledgerEntries } from '../../db/schema';
import { injectClient } from '../../test/api-client';
import { as } from '../../test/as';
import { createAdvertiser, seedGeo } from '../../test/factories';
import { backend, createTestApp, type TestApp } from '../../test/helpers';
import { fundedAdvertiser, sandboxToken } from '../../test/money';
import { onPause, type PausePoint } from './fault';
import * as money from './money.service';

let t: TestApp;
let admin: number;
const removers: Array<() => void> = [];

beforeAll(async () => {
  t = await createTestApp({ PRICE_STANDARD_TOPUP: '10', MIN_TOPUP: '1000' });
  await seedGeo(t.ctx);
  admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
});
afterAll(() => t.close());
afterEach(async () => {
  for (const off of removers.splice(0)) off();
  expect(await money.ledgerProblems(t.ctx.db)).toEqual([]);
});

const key = () => crypto.randomUUID();

const advertiser = (balance: number) => fundedAdvertiser(t.ctx, admin, balance);

const tokenize = (number: string) => sandboxToken(injectClient(t.app), number);

function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Holds the first request that reaches `point` until `release()`; `arrived` resolves when it got there. */
function holdFirst(point: PausePoint) {
  const arrived = latch();
  const released = latch();
  let first = true;
  removers.push(
    onPause(point, async () => {
      if (!first) return;
      first = false;
      arrived.open();
      await released.opened;
    }),
  );
  return { arrived: arrived.opened, release: released.open };
}

/** Resolves once some statement of this database waits for a lock another transaction holds. */
async function someoneWaitsForALock(stop: { done: boolean }) {
  while (!stop.done) {
    const [row] = await queryRows<{ n: number }>(
      t.ctx.db,
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (row.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const dbError = (code: string) => Object.assign(new Error(`simulated ${code}`), { code });

describe.skipIf(backend !== 'postgres')('the lock order on PostgreSQL', () => {
  it('a balance payment (cart, then ledger) and a card settlement (ledger, then cart) of one advertiser both answer 200', async () => {
    const a = await advertiser(500);
    expect((await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' })).statusCode).toBe(200);
    const token = await tokenize('4242 4242 4242 4242');
    const balanceHold = holdFirst('order_cart_consumed');
    const cardHold = holdFirst('payment_credited');

    const balancePayment = as(t, a.session).post('/api/payment/makePayment', {
      method: 'balance',
      idempotency_key: key(),
    });
    await balanceHold.arrived;
    // The balance payment holds what it took first; the card payment runs until it holds its own first
    // locks and reaches its pause, or until it waits for a lock the balance payment holds.
    const cardPayment = as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      amount: 1000,
      idempotency_key: key(),
      card_token: token,
    });
    const stop = { done: false };
    await Promise.race([cardHold.arrived, someoneWaitsForALock(stop)]);
    stop.done = true;
    balanceHold.release();
    cardHold.release();

    const [paid, loaded] = await Promise.all([balancePayment, cardPayment]);
    expect([paid.statusCode, loaded.statusCode]).toEqual([200, 200]);
    expect(paid.json().data.status).toBe('paid');
    // The card's load is credited; the cart it also meant to pay was paid from the balance meanwhile.
    expect(loaded.json().data).toMatchObject({ status: 'loaded', payment: { status: 'succeeded', amount: 1000 } });
    expect(await money.balanceOf(t.ctx, a.id)).toBe(500 - 10 + 1000);
  });
});

describe('deadlocks and serialisation failures', () => {
  it('are retried inside the server: one failure, then the payment goes through', async () => {
    const a = await advertiser(500);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    let calls = 0;
    removers.push(
      onPause('order_cart_consumed', async () => {
        calls += 1;
        if (calls === 1) throw dbError('40P01');
      }),
    );
    const res = await as(t, a.session).post('/api/payment/makePayment', { method: 'balance', idempotency_key: key() });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('paid');
    expect(calls).toBe(2);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(490);
  });

  it('a settlement is retried too', async () => {
    const a = await advertiser(0);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    let calls = 0;
    removers.push(
      onPause('payment_credited', async () => {
        calls += 1;
        if (calls === 1) throw dbError('40001');
      }),
    );
    const res = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      idempotency_key: key(),
      card_token: await tokenize('4242 4242 4242 4242'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'paid', balance: 990 });
    expect(calls).toBe(2);
  });

  it('after 3 retries: 503 with Retry-After, and nothing written', async () => {
    const a = await advertiser(500);
    await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
    const [entries] = await t.ctx.db.select({ n: count() }).from(ledgerEntries);
    let calls = 0;
    removers.push(
      onPause('order_cart_consumed', async () => {
        calls += 1;
        throw dbError(calls % 2 ? '40P01' : '40001');
      }),
    );
    const res = await as(t, a.session).post('/api/payment/makePayment', { method: 'balance', idempotency_key: key() });
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json().message).toBeTruthy();
    expect(calls).toBe(4);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(500);
    const [after] = await t.ctx.db.select({ n: count() }).from(ledgerEntries);
    expect(after.n).toBe(entries.n);
    const [cart] = await t.ctx.db.select({ n: count() }).from(cartItems).where(eq(cartItems.userId, a.id));
    expect(cart.n).toBe(1);
  });
});
