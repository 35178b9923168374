// No 5xx for anything a client can send to a money route, and a refused call changes nothing: odd JSON,
// wrong types, huge and negative numbers, long strings, unknown keys, bad queries and paths, sent by the
// owner and by an admin (who pass every guard) to every payment, auto-topup and admin money route.
import type { HTTPMethods } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { moneyRoutes } from '../../test/routes';
import * as money from './money.service';

let t: TestApp;
let owner: number;
let admin: number;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  owner = (await createAdvertiser(t.ctx)).account.id;
  admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
});
afterAll(() => t.close());

const long = 'x'.repeat(20_000);
const PAYLOADS: Array<string | object> = [
  'null',
  '[]',
  '"text"',
  '12',
  '{"unterminated": ',
  {},
  { amount: 1e300, price: 1e300, user_id: 1e300, city_id: 1e300 },
  { amount: -5, price: -5, user_id: -1, timer_id: -1 },
  { amount: 12.5, price: 0.1, duration_days: 1.5 },
  { amount: '100', price: '700', user_id: '1', code: 'standard_topup' },
  { method: 'card', idempotency_key: long, card_token: long, amount: 1000 },
  { method: 'crypto', idempotency_key: 'k', amount: 2 ** 53 },
  { method: 'balance', idempotency_key: '', expected_total: -1 },
  { method: 'wire', idempotency_key: 'k' },
  { uid: { nested: true } },
  { uid: 'additional_location', city_id: 2 ** 31, from: '2026-02-30', until: 'tomorrow' },
  { uid: 'additional_location', city_id: 1, from: '0000-01-01', until: '9999-12-31' },
  { reference: long, amount: 100, bank_transaction_id: long },
  { reference: 'DIR00000197', amount: 2 ** 40, bank_transaction_id: 'b' },
  { user_id: 1, amount: 0, reason: '', idempotency_key: 'k' },
  { weekdays: [0, 8, 'monday'], local_time: '25:61', weekly_budget: -1 },
  { weekdays: Array.from({ length: 1000 }, () => 1), local_time: '09:00' },
  { code: 'other', price: 100 },
  { ids: [], all: false },
  { __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } },
  { text: 'a\u0000b', uid: 'standard_topup\u0000' },
];
const QUERIES = ['', '?page=0', '?page=-1', '?page=abc', '?page=1e9', '?user_id=0', '?user_id=abc', `?user_id=${long}`];

async function fingerprint() {
  const [row] = await queryRows<{ f: string }>(
    t.ctx.db,
    sql`select (select count(*) from payments) || '/' || (select count(*) from orders) || '/' ||
               (select count(*) from ledger_entries) || '/' || (select count(*) from cart_items) || '/' ||
               (select count(*) from auto_topup_timers) || '/' ||
               (select coalesce(string_agg(code || ':' || price, ','), '') from products) as f`,
  );
  return row.f;
}

describe('money routes and what a client can send', () => {
  it('never answer 5xx, and what they refuse changes nothing', async () => {
    const routes = moneyRoutes(t.app);
    expect(routes.length).toBeGreaterThanOrEqual(18);
    const sessions = [await createSession(t.ctx, owner), await createSession(t.ctx, admin)];
    const ids = [String(owner), '0', '2147483648', 'abc', '-1', '1.5'];
    const server: string[] = [];
    let current = await fingerprint();
    for (const route of routes) {
      for (const session of sessions) {
        for (const idValue of route.url.includes(':') ? ids : ['']) {
          const url = route.url.replace(/:(\w+)/g, (_m, name: string) => (name === 'provider' ? 'sandbox' : idValue));
          const calls: Array<{ url: string; payload?: string; headers?: Record<string, string> }> =
            route.method === 'GET'
              ? QUERIES.map((q) => ({ url: `${url}${q}` }))
              : PAYLOADS.map((payload) => ({
                  url: `${url}${QUERIES[2]}`,
                  payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
                  headers: { ...session.headers, 'content-type': 'application/json' },
                }));
          for (const call of calls) {
            // Nothing else writes meanwhile: the state after the previous call is the state before this one.
            const before = current;
            const res = await t.app.inject({
              method: route.method as HTTPMethods,
              cookies: session.cookies,
              headers: session.headers,
              ...call,
            });
            const label = `${route.method} ${call.url} ${(call.payload ?? '').slice(0, 80)}`;
            if (res.statusCode >= 500) server.push(`${label} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
            current = await fingerprint();
            if (res.statusCode >= 400) expect(current, `refused but changed: ${label}`).toBe(before);
          }
        }
      }
    }
    expect(server).toEqual([]);
    expect(await money.ledgerProblems(t.ctx.db)).toEqual([]);
  }, 180_000);
});
