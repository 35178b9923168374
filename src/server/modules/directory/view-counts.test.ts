// Views and phone reveals count once per visitor, profile and day (issue 8 item 13, decision 0808), and
// the reveal call is rate-limited. With the in-process store and with Redis (REDIS_URL: the seen keys and
// the route limit both live there), on PGlite and PostgreSQL (the two vitest projects).
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { VISITORS_PER_ADDRESS } from '../../lib/visitor-count';
import { createAdvertiser, seedGeo, signIn } from '../../test/factories';
import { hashPassword } from '../../lib/password';
import { createTestApp, type TestApp } from '../../test/helpers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'correct horse battery';
/** Addresses no other run against the same Redis uses. */
const run = crypto.randomBytes(2);
let seq = 0;
const addr = () => `10.${run[0]}.${run[1]}.${++seq}`;

describe.each(['memory', 'redis'] as const)('views and phone reveals with the %s store', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind === 'redis' ? { REDIS_URL } : {});
    await seedGeo(t.ctx);
  });
  afterAll(async () => {
    await t?.close();
  });

  const stats = async (id: number) => {
    const rows = await queryRows<{ day: string; views: number; phone_reveals: number }>(
      t.ctx.db,
      sql`select day::text as day, views, phone_reveals from profile_stats_daily where profile_id = ${id} order by day`,
    );
    const [profile] = await queryRows<{ views: number }>(
      t.ctx.db,
      sql`select views from profiles where user_id = ${id}`,
    );
    return {
      days: rows.map((r) => ({ ...r, views: Number(r.views), phone_reveals: Number(r.phone_reveals) })),
      total: Number(profile.views),
    };
  };
  const view = (id: number, remoteAddress: string, ua = 'Mozilla/5.0 test', extra: object = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/api/getProfile/${id}`,
      remoteAddress,
      headers: { 'user-agent': ua },
      ...extra,
    });
  const reveal = (id: number, remoteAddress: string, ua = 'Mozilla/5.0 test') =>
    t.app.inject({
      method: 'POST',
      url: `/api/directory/phoneReveal/${id}`,
      remoteAddress,
      headers: { 'user-agent': ua },
    });

  it('counts 200 views of one visitor, at once, as one', async () => {
    const { account } = await createAdvertiser(t.ctx, {});
    const address = addr();
    const answers = await Promise.all(Array.from({ length: 200 }, () => view(account.id, address)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const { days, total } = await stats(account.id);
    expect(days.map((d) => d.views)).toEqual([1]);
    expect(total).toBe(1);
    // By name too: the same visitor, the same profile, the same day.
    const name = answers[0].json().profile.screen_name as string;
    await t.app.inject({
      method: 'GET',
      url: `/api/getProfileByName/${encodeURIComponent(name)}`,
      remoteAddress: address,
      headers: { 'user-agent': 'Mozilla/5.0 test' },
    });
    expect((await stats(account.id)).total).toBe(1);
  });

  it(`counts other visitors, but at most ${VISITORS_PER_ADDRESS} browsers behind one address`, async () => {
    const { account } = await createAdvertiser(t.ctx, {});
    for (let i = 0; i < 4; i++) await view(account.id, addr());
    // One address inventing a new User-Agent for every call.
    const address = addr();
    await Promise.all(Array.from({ length: 50 }, (_, i) => view(account.id, address, `agent ${i}`)));
    expect((await stats(account.id)).days[0].views).toBe(4 + VISITORS_PER_ADDRESS);
  });

  it('counts a signed-in visitor once, whatever its address, and a new day again', async () => {
    const passwordHash = await hashPassword(PASSWORD);
    const { account } = await createAdvertiser(t.ctx, {});
    const visitor = await createAdvertiser(t.ctx, { passwordHash });
    const session = await signIn(t.app, visitor.account.email, PASSWORD, addr());
    for (let i = 0; i < 5; i++) await view(account.id, addr(), 'Mozilla/5.0 test', session);
    expect((await stats(account.id)).days.map((d) => d.views)).toEqual([1]);

    const realNow = t.ctx.now;
    t.ctx.now = () => new Date(realNow().getTime() + 86_400_000);
    try {
      await view(account.id, addr(), 'Mozilla/5.0 test', session);
      await view(account.id, addr(), 'Mozilla/5.0 test', session);
    } finally {
      t.ctx.now = realNow;
    }
    expect((await stats(account.id)).days.map((d) => d.views)).toEqual([1, 1]);
    expect((await stats(account.id)).total).toBe(2);
  });

  it('counts the phone reveals of one visitor as one, and refuses more than 30 a minute with 429', async () => {
    const { account } = await createAdvertiser(t.ctx, {});
    const address = addr();
    // At once (within the route's limit): one counted.
    const burst = await Promise.all(Array.from({ length: 25 }, () => reveal(account.id, address)));
    expect(burst.map((a) => a.statusCode)).toEqual(Array(25).fill(200));
    expect((await stats(account.id)).days.map((d) => d.phone_reveals)).toEqual([1]);
    // One after the other: the 31st call in the minute is refused.
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await reveal(account.id, address)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    expect((await reveal(account.id, address)).json()).toEqual({ message: expect.any(String) });
    expect((await stats(account.id)).days.map((d) => d.phone_reveals)).toEqual([1]);
    // Another visitor counts; an unknown profile is still a 404, however often it is asked for.
    expect((await reveal(account.id, addr())).statusCode).toBe(200);
    expect((await stats(account.id)).days.map((d) => d.phone_reveals)).toEqual([2]);
    const stranger = addr();
    expect((await reveal(2_000_000_000, stranger)).statusCode).toBe(404);
    expect((await reveal(2_000_000_000, stranger)).statusCode).toBe(404);
  });
});
