// "Available now" (issue 27, item 3; docs/decisions/0320), on PGlite and PostgreSQL: the owner switches it
// on from the overview for 1 to 8 hours; cards and the profile show it at once; at its end every cached
// answer turns by itself (no write: the versions hold the next end, like a tour's start, 0403), while
// answers of places she is not in stay cached; it moves no position.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { as } from '../../test/as';
import { atClock } from '../../test/clock';
import {
  BERLIN,
  createAdvertiser,
  createSession,
  LONDON,
  MANCHESTER,
  seedGeo,
  type Session,
} from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { listings } from '../../db/schema';
import { answerCache } from './directory.cache';

let t: TestApp;
const ids: Record<string, number> = {};
let owner: Session;
/** Keys of the answers made (not found in the cache) since the last reset. */
let made: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const ago = (m: number) => new Date(Date.now() - m * 60_000);
  ids.anna = (await createAdvertiser(t.ctx, { screenName: 'Anna Now', bumpedAt: ago(50) })).account.id;
  ids.bea = (await createAdvertiser(t.ctx, { screenName: 'Bea Now', bumpedAt: ago(40) })).account.id;
  ids.cleo = (
    await createAdvertiser(t.ctx, { screenName: 'Cleo Now', bumpedAt: ago(30), city: MANCHESTER })
  ).account.id;
  ids.dora = (await createAdvertiser(t.ctx, { screenName: 'Dora Now', bumpedAt: ago(20), city: BERLIN })).account.id;
  owner = await createSession(t.ctx, ids.anna);
  const cache = answerCache(t.ctx);
  const get = cache.get.bind(cache);
  cache.get = (key, produce) =>
    get(key, () => {
      made.push(key);
      return produce();
    });
});
afterAll(() => t.close());
beforeEach(() => {
  made = [];
});

type Item = { id: number; available_now: boolean };
/** A visitor's answer, which must be a 200. */
const read = async (url: string, body: object) => {
  const res = await as(t).post(url, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const pages = {
  uk: () => read('/api/directory/getDirectory?page=1', { country: 'united-kingdom' }),
  london: () => read('/api/directory/getDirectory?page=1', { country: 'united-kingdom', place: 'london' }),
  germany: () => read('/api/directory/getDirectory?page=1', { country: 'germany' }),
  search: () => read('/api/directory/search?page=1', { q: 'Anna Now' }),
  anna: async () => (await as(t).get(`/api/getProfile/${ids.anna}?track=0`)).json(),
};
const flag = (page: { data: Item[] }, id: number) => page.data.find((i) => i.id === id)?.available_now;
const order = (page: { data: Item[] }) => page.data.map((i) => i.id);
/** Anna's "available now" set by `session` (her own by default; null: a visitor). */
const setAvailable = (body: object, session: Session | null = owner) =>
  as(t, session).post(`/api/edit/setAvailableNow/${ids.anna}`, body);
const overview = async () => (await as(t, owner).get(`/api/edit/getOverview/${ids.anna}/7`)).json().data;

describe('available now', () => {
  it('is switched on for some hours, shows on cards and the profile at once, and moves nobody', async () => {
    const before = { uk: order(await pages.uk()), london: order(await pages.london()) };
    expect(flag(await pages.uk(), ids.anna)).toBe(false);
    expect((await pages.anna()).profile.available_until).toBeNull();
    expect((await overview()).available_until).toBeNull();

    const at = t.ctx.now();
    const res = await setAvailable({ hours: 3 });
    expect(res.statusCode, res.body).toBe(200);
    const until = new Date(res.json().data.available_until).getTime();
    expect(until - at.getTime()).toBeGreaterThanOrEqual(3 * 3_600_000);
    expect(until - t.ctx.now().getTime()).toBeLessThanOrEqual(3 * 3_600_000);
    expect((await overview()).available_until).toBe(res.json().data.available_until);

    expect(flag(await pages.uk(), ids.anna)).toBe(true);
    expect(flag(await pages.london(), ids.anna)).toBe(true);
    expect(flag(await pages.search(), ids.anna)).toBe(true);
    expect(flag(await pages.uk(), ids.bea)).toBe(false);
    expect((await pages.anna()).profile.available_until).toBe(res.json().data.available_until);
    // The ranking rule is the whole order: no place gained.
    expect(order(await pages.uk())).toEqual(before.uk);
    expect(order(await pages.london())).toEqual(before.london);

    expect((await setAvailable({ hours: 0 })).json().data.available_until).toBeNull();
    expect(flag(await pages.london(), ids.anna)).toBe(false);
    expect((await pages.anna()).profile.available_until).toBeNull();
  });

  it('ends by itself: no cached answer shows it after its end, and other places stay cached', async () => {
    const start = new Date(Math.floor(Date.now() / 1000) * 1000);
    await atClock(t.ctx, start, async () => {
      expect((await setAvailable({ hours: 1 })).statusCode).toBe(200);
    });
    const end = new Date(start.getTime() + 3_600_000);
    // Warm every answer a minute before the end, twice (the second from the cache).
    const warmAt = new Date(end.getTime() - 60_000);
    await atClock(t.ctx, warmAt, async () => {
      for (let i = 0; i < 2; i++) for (const read of Object.values(pages)) await read();
      expect(flag(await pages.uk(), ids.anna)).toBe(true);
      expect((await pages.anna()).profile.available_until).toBe(end.toISOString());
    });
    made = [];
    await atClock(t.ctx, new Date(end.getTime() - 1), async () => {
      expect(flag(await pages.london(), ids.anna)).toBe(true);
      expect(made).toEqual([]);
    });
    await atClock(t.ctx, end, async () => {
      expect(flag(await pages.uk(), ids.anna)).toBe(false);
      expect(flag(await pages.london(), ids.anna)).toBe(false);
      expect(flag(await pages.search(), ids.anna)).toBe(false);
      expect((await pages.anna()).profile.available_until).toBeNull();
      made = [];
      // Germany holds no profile of hers: its cached answer was kept.
      await pages.germany();
      expect(made).toEqual([]);
    });
    expect((await setAvailable({ hours: 0 })).statusCode).toBe(200);
  });

  it('takes 1 to 8 whole hours, from the owner or an admin only', async () => {
    for (const body of [{ hours: 9 }, { hours: -1 }, { hours: 1.5 }, { hours: '2' }, {}, { hours: 2, until: 'x' }]) {
      const res = await setAvailable(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
    const stranger = await createSession(t.ctx, ids.bea);
    expect((await setAvailable({ hours: 2 }, stranger)).statusCode).toBe(403);
    expect((await setAvailable({ hours: 2 }, null)).statusCode).toBe(401);
    expect((await pages.anna()).profile.available_until).toBeNull();
    const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
    expect((await setAvailable({ hours: 8 }, await createSession(t.ctx, admin))).statusCode).toBe(200);
    expect((await pages.anna()).profile.available_until).not.toBeNull();
    await setAvailable({ hours: 0 });
  });

  it("finds a place's next end among the entries there only, a visit's included (migration 0029)", async () => {
    // Everyone in some place is available, a different hour each; the next end in a place is the first of
    // the entries there, in the future, whoever else ends sooner elsewhere.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const hour = (h: number) => new Date(at.getTime() + h * 3_600_000);
    const until: Record<string, Date> = { anna: hour(3), bea: hour(-1), cleo: hour(2), dora: hour(1) };
    for (const [name, end] of Object.entries(until))
      await t.ctx.db.execute(sql`update profiles set available_until = ${end} where user_id = ${ids[name]}`);
    const endIn = async (country: string | null, city: number | null, moment = at) => {
      const [row] = await queryRows<{ end: string | null }>(
        t.ctx.db,
        sql`select directory_available_end(${moment}::timestamptz, ${country}::char(2), ${city}::integer)::text as end`,
      );
      return row.end === null ? null : Number(row.end);
    };
    try {
      expect(await endIn(null, LONDON.id)).toBe(until.anna.getTime()); // Bea's end has passed
      expect(await endIn(null, MANCHESTER.id)).toBe(until.cleo.getTime());
      expect(await endIn(null, BERLIN.id)).toBe(until.dora.getTime());
      expect(await endIn('GB', null)).toBe(until.cleo.getTime());
      expect(await endIn('DE', null)).toBe(until.dora.getTime());
      expect(await endIn('FR', null)).toBeNull();
      // After Cleo's end, Anna's is the UK's next; after Anna's, nobody's in London.
      expect(await endIn('GB', null, hour(2))).toBe(until.anna.getTime());
      expect(await endIn(null, LONDON.id, hour(3))).toBeNull();
      // Dora visits Manchester: her end (sooner than Cleo's) is now Manchester's and the UK's too.
      const [visit] = await t.ctx.db
        .insert(listings)
        .values({
          profileId: ids.dora,
          cityId: MANCHESTER.id,
          countryCode: 'GB',
          kind: 'additional',
          bumpedAt: new Date(),
          tourFrom: at.toISOString().slice(0, 10),
          tourUntil: hour(48).toISOString().slice(0, 10),
          expiresAt: hour(48),
        })
        .returning();
      expect(await endIn(null, MANCHESTER.id)).toBe(until.dora.getTime());
      expect(await endIn('GB', null)).toBe(until.dora.getTime());
      await t.ctx.db.execute(sql`delete from listings where id = ${visit.id}`);
      expect(await endIn(null, MANCHESTER.id)).toBe(until.cleo.getTime());
    } finally {
      for (const id of Object.values(ids))
        await t.ctx.db.execute(sql`update profiles set available_until = null where user_id = ${id}`);
    }
  });
});
