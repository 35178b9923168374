// PCI DSS SAQ-A (issue 11, decision 0400; every route since 0810): a card number never reaches our API. Card-number-like strings
// posted in any field, query or path of every payment route of ours are refused, and afterwards no
// database row holds one and no log line (logger output captured at trace level, request lines included)
// shows one. The sandbox acquirer's tokenizer and payment page, which are meant to receive card numbers,
// keep only the last four digits and log none either.
import { sql } from 'drizzle-orm';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../db/client';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { moneyRoutes } from '../../test/routes';
import * as sandbox from '../sandbox-acquirer/sandbox-acquirer.service';

const CARDS = [
  '4242424242424242',
  '4000 0000 0000 3220',
  '4000-0000-0000-0002',
  '5555555555554444',
  '378282246310005', // 15 digits (Amex)
];
const digits = (card: string) => card.replace(/\D/g, '');
/** A card number with or without spaces or dashes between its digits. */
const pattern = (card: string) => digits(card).split('').join('[ -]?');

let t: TestApp;
const logged: string[] = [];
let owner: number;
let admin: number;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'trace' }, { logStream: { write: (line: string) => logged.push(line) } });
  await seedGeo(t.ctx);
  owner = (await createAdvertiser(t.ctx)).account.id;
  admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
});
afterAll(() => t.close());

/** Bodies that carry a card number: as a field of its own, in an id field, in free text, nested, as a number. */
function bodies(card: string): unknown[] {
  return [
    { number: card, exp_month: 12, exp_year: 2030, cvc: '123' },
    { method: 'card', idempotency_key: card, card_token: 'tok_x' },
    { method: 'card', idempotency_key: 'k-1', card_token: card },
    { uid: card },
    { reason: `paid with my card ${card}, thanks`, amount: 100, user_id: 1, idempotency_key: 'k-2' },
    { reference: card, amount: 100, bank_transaction_id: 'b-1' },
    { weekdays: [1], local_time: '09:00', note: { deep: ['x', card] } },
    { amount: Number(digits(card)) },
  ];
}

async function moneyRowCounts() {
  const rows = await queryRows<{ t: string; n: string }>(
    t.ctx.db,
    sql`select 'payments' as t, count(*) as n from payments union all select 'orders', count(*) from orders
        union all select 'cart_items', count(*) from cart_items union all select 'ledger_entries', count(*) from ledger_entries
        union all select 'payment_events', count(*) from payment_events
        union all select 'auto_topup_timers', count(*) from auto_topup_timers`,
  );
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

/** Every row of every table of ours, as text, searched for each card number. */
async function tablesHolding(card: string): Promise<string[]> {
  const tables = await queryRows<{ name: string }>(
    t.ctx.db,
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const [hit] = await queryRows<{ n: string }>(
      t.ctx.db,
      sql`select count(*) as n from ${sql.identifier(name)} r where r::text ~ ${pattern(card)}`,
    );
    if (Number(hit.n) > 0) found.push(name);
  }
  return found;
}

describe('card numbers sent to our payment routes', () => {
  it('let through a public media file whose random key holds a run of digits that reads as a card', async () => {
    // The store wrote this key (24 random hex digits, then the width): "81524331532655-640" passes the Luhn check.
    const url = '/media/u/2/86e9d37dcd81524331532655-640.jpg';
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    // The same digits sent to an API route are still refused.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/search?page=1',
      payload: { q: 'd81524331532655-640' },
    });
    expect(res.statusCode).toBe(422);
  });

  it('let through an idempotency key written as a UUID whose digit groups spell a card (decision 0811)', async () => {
    // crypto.randomUUID wrote this key; read as dashed digit groups "8119-729018190145" is a Visa number.
    const key = '1907cd3f-255a-4605-8119-729018190145';
    const session = await createSession(t.ctx, owner);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payment/makePayment',
      ...session,
      payload: {
        method: 'card',
        idempotency_key: key,
        purpose: 'load',
        amount: 1000,
        return_path: `/edit/load/${owner}`,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('requires_action');
    const [row] = await queryRows<{ key: string }>(
      t.ctx.db,
      sql`select idempotency_key as key from payments where user_id = ${owner}`,
    );
    expect(row.key).toBe(key);
  });

  it('are refused on every route, and afterwards are in no table and no log line', async () => {
    const consoleLines: string[] = [];
    for (const level of ['log', 'info', 'warn', 'debug'] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        consoleLines.push(args.map(String).join(' '));
      });
    const routes = moneyRoutes(t.app);
    expect(routes.length).toBeGreaterThanOrEqual(18);
    const before = await moneyRowCounts();
    const sessions = { owner: await createSession(t.ctx, owner), admin: await createSession(t.ctx, admin) };
    const fill = (url: string) =>
      url.replace(/:(\w+)/g, (_m, name: string) =>
        name === 'id' ? String(owner) : name === 'provider' ? 'sandbox' : '1',
      );
    const refusals: string[] = [];
    const accepted: string[] = [];
    const cardRefusals = new Map<string, number>();

    for (const route of routes) {
      for (const [who, session] of Object.entries(sessions)) {
        for (const card of CARDS) {
          const calls =
            route.method === 'GET'
              ? [
                  { url: `${fill(route.url)}?number=${encodeURIComponent(card)}` },
                  { url: `${fill(route.url)}?user_id=${digits(card)}&page=1` },
                  { url: `${fill(route.url)}?page=1&note=${encodeURIComponent(`card ${card}`)}` },
                ]
              : bodies(card).map((payload) => ({ url: fill(route.url), payload: payload as object }));
          for (const call of calls) {
            const res = await t.app.inject({ method: route.method as HTTPMethods, ...call, ...session });
            const label = `${who} ${route.method} ${call.url} ${JSON.stringify('payload' in call ? call.payload : '')}`;
            if (res.statusCode < 400) accepted.push(`${label} -> ${res.statusCode}`);
            // Whoever passes the route's guard is told why: the card field (the webhook: no signature).
            else if (route.url === '/api/payment/webhook/:provider') expect(res.statusCode, label).toBe(401);
            else if (who === 'admin' && res.statusCode !== 429) {
              // (429: makePayment's limit of 30 calls per account stops the rest, before anything is read.)
              // On the field that held it (plugins/card-guard.ts, decision 0810).
              expect(res.statusCode, label).toBe(422);
              const errors = Object.values(res.json().errors ?? {}).flat();
              expect(errors, label).toEqual(["Card numbers can't be posted here."]);
              cardRefusals.set(route.url, (cardRefusals.get(route.url) ?? 0) + 1);
            }
            refusals.push(label);
          }
        }
      }
    }
    expect(accepted, 'calls that carried a card number and were not refused').toEqual([]);
    expect(refusals.length).toBeGreaterThan(500);
    // Each route (but the webhook) told an admin, who passes every guard, that a card number was refused.
    for (const route of routes.filter((r) => r.url !== '/api/payment/webhook/:provider'))
      expect(cardRefusals.get(route.url) ?? 0, route.url).toBeGreaterThanOrEqual(15);

    // In a path: refused too, and the logged URL is masked.
    for (const card of CARDS) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/payment/getPayment/${encodeURIComponent(card)}`,
        ...sessions.owner,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ paymentId: ["Card numbers can't be posted here."] });
    }

    // The provider's tokenizer receives the number by design: it keeps the last four digits only.
    const token = await t.app.inject({
      method: 'POST',
      url: '/sandbox-acquirer/v1/tokens',
      payload: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123' },
    });
    expect(token.statusCode).toBe(200);
    expect(token.json().card.last4).toBe('4242');
    // So does its payment page (decision 0421), the card's only way in from our screens: a charge is made
    // (its notification held: no payment of ours is touched) and only the last four digits are kept.
    const order = { key: 'pay_0', amount: 1000, currency: 'EUR', returnUrl: '/checkout/cart', expires: 4_102_444_800 };
    const page = await t.app.inject({
      method: 'POST',
      url: '/sandbox-acquirer/v1/pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...sandbox.pageFields(t.ctx, order),
        number: '4000 0000 0000 3220',
        name: 'Ada Test',
        expiry: `12/${String(new Date().getUTCFullYear() + 2).slice(2)}`,
        cvc: '123',
        hold: 'on',
      }).toString(),
    });
    expect(page.statusCode).toBe(303);
    expect((await sandbox.chargeByKey(t.ctx, 'pay_0'))?.last4).toBe('3220');

    expect(await moneyRowCounts()).toEqual(before);
    for (const card of CARDS) expect(await tablesHolding(card), `tables holding ${card}`).toEqual([]);

    const log = [...logged, ...consoleLines].join('\n');
    // The capture works: request lines of these very calls are in it, with masked URLs.
    expect(log).toContain('/api/payment/makePayment');
    expect(log).toContain('/api/payment/getPayment/[card]');
    for (const card of CARDS) {
      const re = new RegExp(pattern(card));
      expect(
        log.split('\n').filter((line) => re.test(line)),
        `log lines showing ${card}`,
      ).toEqual([]);
    }
  }, 300_000);
});
