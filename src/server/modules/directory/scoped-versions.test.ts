// Versions per scope and counts kept with the writes (docs/decisions/0730), on PGlite and PostgreSQL: a
// write refreshes the answers that can contain what it changed, at once, and leaves every other cached
// answer as it was; the totals a visitor sees are what paging returns, whoever wrote and whatever the
// app's clock says. Writes are plain SQL: only the database's triggers know of them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refreshCountryPrimary } from '../listings/listings.service';
import { as } from '../../test/as';
import { BERLIN, createAdvertiser, MANCHESTER, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { answerCache } from './directory.cache';

let t: TestApp;
const ids: Record<string, number> = {};
/** Keys of the answers made (not found in the cache) since the last reset. */
let made: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const ago = (m: number) => new Date(Date.now() - m * 60_000);
  ids.anna = (await createAdvertiser(t.ctx, { screenName: 'Anna Scope', bumpedAt: ago(50) })).account.id;
  ids.bea = (await createAdvertiser(t.ctx, { screenName: 'Bea Scope', bumpedAt: ago(40), gender: 'trans' })).account.id;
  ids.cleo = (
    await createAdvertiser(t.ctx, { screenName: 'Cleo Scope', bumpedAt: ago(30), city: MANCHESTER, dominatrix: true })
  ).account.id;
  ids.dora = (await createAdvertiser(t.ctx, { screenName: 'Dora Scope', bumpedAt: ago(20), city: BERLIN })).account.id;
  ids.erin = (await createAdvertiser(t.ctx, { screenName: 'Erin Scope', bumpedAt: ago(10), city: BERLIN })).account.id;
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

/** A visitor's POST that must answer 200; its body. */
const ok = async (url: string, payload: object) => {
  const res = await as(t).post(url, payload);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const pages = {
  uk: () => ok('/api/directory/getDirectory?page=1', { country: 'united-kingdom' }),
  london: () => ok('/api/directory/getDirectory?page=1', { country: 'united-kingdom', place: 'london' }),
  manchester: () => ok('/api/directory/getDirectory?page=1', { country: 'united-kingdom', place: 'manchester' }),
  germany: () => ok('/api/directory/getDirectory?page=1', { country: 'germany' }),
  ukFemale: () => ok('/api/directory/getDirectory?page=1', { country: 'united-kingdom', category: 'female' }),
  ukDom: () => ok('/api/directory/getDirectory?page=1', { country: 'united-kingdom', category: 'dom' }),
  ukNav: () => ok('/api/directory/getNavigation', { country: 'united-kingdom' }),
  deNav: () => ok('/api/directory/getNavigation', { country: 'germany' }),
  dora: async () => (await as(t).get(`/api/getProfile/${ids.dora}?track=0`)).json(),
  anna: async () => (await as(t).get(`/api/getProfile/${ids.anna}?track=0`)).json(),
};
type Page = keyof typeof pages;
/** Reads each page twice (the second from the cache), then forgets what was made. */
const warm = async () => {
  for (let i = 0; i < 2; i++) for (const read of Object.values(pages)) await read();
  made = [];
};
/** Which of the pages were made again (not answered from the cache) by reading them all once. */
const remade = async () => {
  const before = made.length;
  const again: Page[] = [];
  for (const [name, read] of Object.entries(pages) as Array<[Page, () => Promise<unknown>]>) {
    const n = made.length;
    await read();
    if (made.length > n) again.push(name);
  }
  expect(made.length).toBeGreaterThanOrEqual(before);
  return again.sort();
};
const headingOf = (page: { data: Array<{ id: number; heading: string }> }, id: number) =>
  page.data.find((i) => i.id === id)?.heading;

describe('versions per scope', () => {
  it('shows an edit at once on the pages that hold the profile, and keeps every other cached answer', async () => {
    await warm();
    await t.ctx.db.execute(sql`update profiles set heading = 'Edited by SQL' where user_id = ${ids.anna}`);
    expect(headingOf(await pages.uk(), ids.anna)).toBe('Edited by SQL');
    expect(headingOf(await pages.london(), ids.anna)).toBe('Edited by SQL');
    expect((await pages.anna()).profile.heading).toBe('Edited by SQL');
    made = [];
    await warm();
    await t.ctx.db.execute(sql`update profiles set heading = 'Edited again' where user_id = ${ids.anna}`);
    // Anna is a female escort in London: the UK lists of escorts and female escorts, London's list and her
    // profile. Not Manchester, not the dom list, not Germany, and no count changed (navigation kept).
    expect(await remade()).toEqual(['anna', 'london', 'uk', 'ukFemale']);
  });

  it('refreshes one country on a top-up there and nothing in another', async () => {
    await warm();
    await t.ctx.db.execute(sql`update listings set bumped_at = now() where profile_id = ${ids.dora}`);
    expect((await pages.germany()).data[0].id).toBe(ids.dora);
    made = [];
    await warm();
    await t.ctx.db.execute(
      sql`update listings set bumped_at = now() - interval '1 hour' where profile_id = ${ids.dora}`,
    );
    expect(await remade()).toEqual(['dora', 'germany']);
  });

  it('changes the counts of the country whose list changed, and only its navigation', async () => {
    await warm();
    await t.ctx.db.execute(sql`update profiles set listed = false where user_id = ${ids.cleo}`);
    expect((await pages.ukNav()).counts.dom).toBe(0);
    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${ids.cleo}`);
    made = [];
    await warm();
    await t.ctx.db.execute(sql`update profiles set dominatrix = false where user_id = ${ids.cleo}`);
    // Cleo is a female escort in Manchester too: those lists are remade, the London list is kept.
    expect(await remade()).toEqual(['manchester', 'uk', 'ukDom', 'ukFemale', 'ukNav']);
    expect((await pages.ukNav()).counts.dom).toBe(0);
    await t.ctx.db.execute(sql`update profiles set dominatrix = true where user_id = ${ids.cleo}`);
  });

  it('drops an expired listing in one country at its moment, keeping the other country cached', async () => {
    const realNow = t.ctx.now;
    const at = realNow();
    t.ctx.now = () => at;
    try {
      await t.ctx.db.execute(
        sql`update listings set expires_at = ${new Date(at.getTime() + 60_000).toISOString()}::timestamptz
            where profile_id = ${ids.erin}`,
      );
      await warm();
      t.ctx.now = () => new Date(at.getTime() + 61_000);
      expect((await pages.germany()).data.map((i: { id: number }) => i.id)).not.toContain(ids.erin);
      expect((await pages.deNav()).counts.escorts).toBe(1);
      made = [];
      expect(await remade()).toEqual([]);
    } finally {
      t.ctx.now = realNow;
    }
    await t.ctx.db.execute(sql`update listings set expires_at = null where profile_id = ${ids.erin}`);
  });
});

describe('counts kept with the writes', () => {
  /** Every page of a list, as ids, and the total each page states. */
  const allPages = async (filter: object) => {
    const seen: number[] = [];
    const totals = new Set<number>();
    for (let page = 1; ; page++) {
      const res = await ok(`/api/directory/getDirectory?page=${page}`, filter);
      seen.push(...res.data.map((i: { id: number }) => i.id));
      totals.add(res.total);
      if (!res.has_more) break;
    }
    return { seen, totals: [...totals] };
  };
  const filters = [
    { country: 'united-kingdom' },
    { country: 'united-kingdom', category: 'female' },
    { country: 'united-kingdom', category: 'trans' },
    { country: 'united-kingdom', category: 'dom' },
    { country: 'united-kingdom', place: 'london' },
    { country: 'united-kingdom', place: 'london', category: 'female' },
    { country: 'united-kingdom', place: 'manchester' },
    { country: 'germany' },
  ];
  /** Each list's total equals what its pages return, and the navigation and the countries say the same. */
  const expectTotalsMatchPaging = async (step: string) => {
    const countries = (await as(t).get('/api/directory/countries')).json().data;
    for (const f of filters) {
      const { seen, totals } = await allPages(f);
      expect(totals, `${step} ${JSON.stringify(f)}`).toEqual([seen.length]);
      const category = (f as { category?: string }).category ?? 'escorts';
      const place = (f as { place?: string }).place;
      const nav = await ok('/api/directory/getNavigation', f);
      expect(nav.counts[category] ?? 0, `${step} ${JSON.stringify(f)}`).toBe(seen.length);
      if (place) {
        const country = await ok('/api/directory/getNavigation', { ...f, place: undefined });
        expect(country.places.find((p: { slug: string }) => p.slug === place)?.count ?? 0, step).toBe(seen.length);
      } else if (category === 'escorts') {
        const listed = countries.find((c: { slug: string }) => c.slug === f.country)?.count ?? 0;
        expect(listed, `${step} ${JSON.stringify(f)}`).toBe(seen.length);
      }
    }
  };

  it('says what paging returns after every kind of write, and at an expiry before the task ran', async () => {
    const more: number[] = [];
    for (let i = 0; i < 30; i++)
      more.push(
        (
          await createAdvertiser(t.ctx, {
            screenName: `Many ${i}`,
            gender: (['female', 'male', 'trans'] as const)[i % 3],
            dominatrix: i % 4 === 0,
            city: i % 2 ? MANCHESTER : undefined,
          })
        ).account.id,
      );
    await expectTotalsMatchPaging('step 1');
    // A tour in London for a Manchester profile: the country shows her once, the cities both.
    await t.ctx.db.execute(sql`insert into listings (profile_id, city_id, country_code, kind, expires_at)
      select user_id, 2643743, 'GB', 'additional', now() + interval '30 days' from profiles where user_id = ${more[1]}`);
    await refreshCountryPrimary(t.ctx.db, t.ctx.now());
    await expectTotalsMatchPaging('step 2');
    await t.ctx.db.execute(sql`update profiles set listed = false where user_id in (${more[2]}, ${more[3]})`);
    await t.ctx.db.execute(sql`update profiles set gender = 'male', dominatrix = true where user_id = ${more[4]}`);
    await t.ctx.db.execute(sql`update listings set city_id = 2643123 where profile_id = ${more[6]}`);
    await t.ctx.db.execute(sql`delete from listings where profile_id = ${more[8]}`);
    await t.ctx.db.execute(sql`delete from accounts where id = ${more[10]}`);
    await expectTotalsMatchPaging('step 3');
    // In one transaction, and one rolled back.
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`update profiles set listed = true where user_id = ${more[2]}`);
      await tx.execute(sql`update profiles set gender = 'trans' where user_id = ${more[12]}`);
    });
    await t.ctx.db
      .transaction(async (tx) => {
        await tx.execute(sql`update profiles set listed = false where user_id = ${more[14]}`);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await expectTotalsMatchPaging('step 4');
    // Every listing of Manchester's first profiles expires by the app clock; the task has not run: the
    // London tour stands in for its home in the country (0723), the city counts drop it.
    const realNow = t.ctx.now;
    try {
      await t.ctx.db.execute(sql`update listings set expires_at = now() + interval '1 day'
        where profile_id in (${more[1]}, ${more[5]}) and kind = 'home'`);
      t.ctx.now = () => new Date(realNow().getTime() + 2 * 86_400_000);
      await expectTotalsMatchPaging('step 5');
      t.ctx.now = () => new Date(realNow().getTime() + 40 * 86_400_000);
      await expectTotalsMatchPaging('step 6');
    } finally {
      t.ctx.now = realNow;
    }
  });
});
