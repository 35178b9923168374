// Filters on the directory lists (issue 27 item 1; docs/decisions/0324), on PGlite and PostgreSQL: each
// filter finds exactly who it names, in the unfiltered list's order (a filter never ranks), the total is
// what paging returns, the answer cache keys the normalised filter, and a filter the API does not know is
// a 422 envelope, never a 5xx.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { media, profiles } from '../../db/schema';
import { as } from '../../test/as';
import { BERLIN, createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { buildPagesApp, createTestApp, type TestApp } from '../../test/helpers';
import { answerCache } from './directory.cache';
import { PAGE_SIZE } from '#shared/constants.ts';
import { COUNTED_TOTAL_PAGES } from '#shared/schemas/directory.ts';

let t: TestApp;
const ids: Record<string, number> = {};
/** 30 more in London offering massage (past one page of 24), none matching the other filters. */
const crowd: number[] = [];
let made: string[] = [];

const yearsAgo = (years: number, days = 0) => {
  const d = new Date(t.ctx.now());
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const ago = (m: number) => new Date(Date.now() - m * 60_000);
  const make = async (name: string, minutes: number, set: Partial<typeof profiles.$inferInsert>, city = LONDON) => {
    const { account } = await createAdvertiser(t.ctx, { screenName: name, bumpedAt: ago(minutes), city });
    await t.ctx.db.update(profiles).set(set).where(eq(profiles.userId, account.id));
    return account.id;
  };
  // Ages: 25 (shown), 40 (shown), 30 (not shown: never found by age). Birthday edge: turns 26 tomorrow.
  ids.ana = await make('Ana Filter', 10, {
    shownBirthDate: yearsAgo(25),
    currency: 'GBP',
    rates: { incall: { '60min': 150, '30min': 90 }, outcall: { '60min': 250 } },
    services: ['gfe', 'massage'],
    languages: ['en', 'pt'],
    verificationStatus: 'verified',
  });
  ids.bella = await make('Bella Filter', 20, {
    shownBirthDate: yearsAgo(40),
    currency: 'GBP',
    // Only visits: the out-call 60-minute rate is her price.
    rates: { incall: { '60min': null }, outcall: { '60min': 200 } },
    services: ['bdsm'],
    languages: ['de'],
  });
  ids.cara = await make('Cara Filter', 30, {
    currency: 'EUR',
    rates: { incall: { '60min': 150 }, outcall: {} },
    services: ['gfe'],
    languages: ['en'],
  });
  ids.dana = await make('Dana Filter', 40, { shownBirthDate: yearsAgo(26, -1), currency: 'GBP', rates: {} });
  ids.ella = await make('Ella Filter', 5, { shownBirthDate: yearsAgo(27), services: ['gfe'] }, MANCHESTER);
  ids.frau = await make('Frau Filter', 5, { shownBirthDate: yearsAgo(27), services: ['gfe'] }, BERLIN);
  for (let i = 0; i < 30; i++)
    crowd.push(await make(`Crowd ${String.fromCharCode(97 + i)}`, 100 + i, { services: ['massage'] }));
  // Ana has an approved video, Bella one waiting for an admin (not public: not "with video").
  await t.ctx.db.insert(media).values([
    { userId: ids.ana, type: 'video', status: 'approved', storageKey: 'v/ana.mp4', mime: 'video/mp4' },
    { userId: ids.bella, type: 'video', status: 'pending', storageKey: 'v/bella.mp4', mime: 'video/mp4' },
  ]);
  await t.ctx.db
    .update(profiles)
    .set({ availableUntil: new Date(t.ctx.now().getTime() + 3_600_000) })
    .where(eq(profiles.userId, ids.bella));
  await t.ctx.db
    .update(profiles)
    .set({ availableUntil: new Date(t.ctx.now().getTime() - 60_000) })
    .where(eq(profiles.userId, ids.cara));
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

type Page = { data: Array<{ id: number }>; total: number; total_more?: boolean; has_more: boolean; page: number };
const london = async (filters?: object, page = 1): Promise<Page> => {
  const res = await as(t).post(`/api/directory/getDirectory?page=${page}`, {
    country: 'united-kingdom',
    place: 'london',
    filters,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const uk = async (filters?: object): Promise<Page> => {
  const res = await as(t).post('/api/directory/getDirectory?page=1', { country: 'united-kingdom', filters });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const idsOf = (page: Page) => page.data.map((i) => i.id);
/** Every row paging returns, and the totals each page said. */
const allPages = async (filters?: object) => {
  const rows: number[] = [];
  const totals: number[] = [];
  for (let n = 1; ; n++) {
    const page = await london(filters, n);
    rows.push(...idsOf(page));
    totals.push(page.total);
    if (!page.has_more) return { rows, totals };
  }
};

describe('directory filters', () => {
  it('each filter finds exactly whom it names, in the unfiltered order', async () => {
    const all = idsOf(await london());
    const expectFinds = async (filters: object, who: number[]) => {
      const page = await london(filters);
      // A filter leaves rows out and ranks nothing: the unfiltered order, with the others taken out.
      expect(idsOf(page)).toEqual(all.filter((id) => who.includes(id)));
      expect(page.total).toBe(who.length);
    };
    await expectFinds({ age_min: 20, age_max: 30 }, [ids.ana, ids.dana]);
    // Dana turns 26 tomorrow: 25 today.
    await expectFinds({ age_min: 26 }, [ids.bella]);
    await expectFinds({ age_max: 25 }, [ids.ana, ids.dana]);
    await expectFinds({ age_min: 40, age_max: 40 }, [ids.bella]);
    await expectFinds({ price_min: 100, price_max: 180, currency: 'GBP' }, [ids.ana]);
    await expectFinds({ price_min: 180, currency: 'GBP' }, [ids.bella]);
    await expectFinds({ price_max: 1000, currency: 'GBP' }, [ids.ana, ids.bella]);
    // The list's currency only: Cara's 150 is in euros.
    await expectFinds({ price_min: 100, price_max: 180, currency: 'EUR' }, [ids.cara]);
    await expectFinds({ services: ['bdsm', 'gfe'] }, [ids.ana, ids.bella, ids.cara]);
    await expectFinds({ languages: ['pt', 'de'] }, [ids.ana, ids.bella]);
    await expectFinds({ verified: true }, [ids.ana]);
    await expectFinds({ video: true }, [ids.ana]);
    await expectFinds({ incall: true }, [ids.ana, ids.cara]);
    await expectFinds({ outcall: true }, [ids.ana, ids.bella]);
    // Cara's ended a minute ago.
    await expectFinds({ available: true }, [ids.bella]);
    // Together: every one must hold.
    await expectFinds({ age_min: 20, age_max: 30, services: ['gfe'], price_max: 200, currency: 'GBP' }, [ids.ana]);
    await expectFinds({ verified: true, services: ['bdsm'] }, []);
    // Empty lists and no filter at all: the whole list.
    expect(idsOf(await london({}))).toEqual(all);
    expect(idsOf(await london({ services: [] }))).toEqual(all);
  });

  it('counts what paging returns, on every page', async () => {
    const massage = await allPages({ services: ['massage'] });
    expect(massage.rows).toHaveLength(31);
    expect(new Set(massage.rows).size).toBe(31);
    expect(massage.totals).toEqual([31, 31]);
    expect(massage.rows.slice(1)).toEqual(crowd);
  });

  it('filters the country page and search alike, and nearby', async () => {
    expect(idsOf(await uk({ age_min: 26, age_max: 30 }))).toEqual([ids.ella]);
    expect((await uk({ services: ['gfe'] })).total).toBe(3);
    const res = await as(t).post('/api/directory/search?page=1', { q: 'filter', filters: { services: ['gfe'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(idsOf(res.json()).sort()).toEqual([ids.ana, ids.cara, ids.ella, ids.frau].sort());
    expect(res.json().total).toBe(4);
    const near = await as(t).post('/api/directory/nearby?page=1', {
      lat: LONDON.lat,
      lng: LONDON.lng,
      filters: { age_min: 26, age_max: 30 },
    });
    expect(near.statusCode, near.body).toBe(200);
    // Nearest first: Manchester, then Berlin.
    expect(idsOf(near.json())).toEqual([ids.ella, ids.frau]);
  });

  it('finds the same people through the entries (country page, search) and the profile rows (nearby)', async () => {
    // The UK's country page and search test each fact on directory_entries, nearby on the profile
    // (decisions 0734, 0737): the same answer.
    const named = [ids.ana, ids.bella, ids.cara, ids.dana, ids.ella];
    const filters: object[] = [
      { age_min: 20, age_max: 30 },
      { price_min: 100, price_max: 200, currency: 'GBP' },
      { price_max: 220, currency: 'GBP' },
      { services: ['gfe'] },
      { languages: ['pt', 'de'] },
      { verified: true },
      { video: true },
      { incall: true },
      { outcall: true },
      { available: true },
    ];
    const key = (f: object) => JSON.stringify(f);
    for (const f of filters) {
      const viaEntries = idsOf(await uk(f)).filter((id) => named.includes(id));
      const found = await as(t).post('/api/directory/search?page=1', { q: 'filter', filters: f });
      const near = await as(t).post('/api/directory/nearby?page=1', { lat: LONDON.lat, lng: LONDON.lng, filters: f });
      expect(near.statusCode, near.body).toBe(200);
      const viaSearch = idsOf(found.json()).filter((id) => named.includes(id));
      const viaProfiles = idsOf(near.json()).filter((id) => named.includes(id));
      expect(viaEntries.length, key(f)).toBeGreaterThan(0);
      expect([...viaSearch].sort(), key(f)).toEqual([...viaEntries].sort());
      expect([...viaProfiles].sort(), key(f)).toEqual([...viaEntries].sort());
    }
  });

  it('caches one answer per normalised filter, apart from the unfiltered one', async () => {
    await london();
    made = [];
    await london({ services: ['gfe', 'bdsm'], languages: ['en'] });
    const first = made.length;
    expect(first).toBe(1);
    const again = await london({ languages: ['en', 'en'], services: ['bdsm', 'gfe', 'bdsm'], verified: undefined });
    expect(made).toHaveLength(first);
    expect(idsOf(again)).toEqual([ids.ana, ids.cara]);
    // A new filter is a new answer, not the cached unfiltered one.
    expect(idsOf(await london({ services: ['bdsm'] }))).toEqual([ids.bella]);
    expect(made).toHaveLength(first + 1);
  });

  it('refuses what it does not know with the 422 envelope, on every list', async () => {
    const bad: object[] = [
      { colour: 'red' },
      { services: ['juggling'] },
      { languages: ['xx'] },
      { age_min: 17 },
      { age_min: 30, age_max: 25 },
      { price_min: 300, price_max: 100, currency: 'GBP' },
      { price_min: 100 },
      { price_min: 100, currency: 'XXX' },
      { price_min: -1, currency: 'GBP' },
      { price_min: 1.5, currency: 'GBP' },
      { verified: false },
      { verified: 'yes' },
      { available: 1 },
      { services: 'gfe' },
      { services: Array(100).fill('gfe') },
    ];
    const lists = [
      (filters: object) =>
        as(t).post('/api/directory/getDirectory', { country: 'united-kingdom', place: 'london', filters }),
      (filters: object) => as(t).post('/api/directory/getDirectory', { country: 'united-kingdom', filters }),
      (filters: object) => as(t).post('/api/directory/search', { q: 'filter', filters }),
      (filters: object) => as(t).post('/api/directory/nearby', { lat: 51.5, lng: -0.1, filters }),
    ];
    for (const list of lists) {
      for (const filters of bad) {
        const res = await list(filters);
        expect(res.statusCode, `${JSON.stringify(filters)}: ${res.body}`).toBe(422);
        expect(typeof res.json().message).toBe('string');
        expect(res.json().errors).toBeTypeOf('object');
      }
      const notObject = await list('gfe' as unknown as object);
      expect(notObject.statusCode).toBe(422);
    }
  });

  it('renders a filtered page filtered for its first paint, noindex, its canonical the whole list', async () => {
    const pages = await buildPagesApp(
      t,
      '<!doctype html><html lang="en"><head><title>Directory</title></head><body><div id="root"></div></body></html>',
    );
    try {
      const whole = await as(pages).get('/escorts/united-kingdom/london');
      expect(whole.body).not.toContain('noindex');
      expect(whole.body).toContain('Crowd a');
      const res = await as(pages).get('/escorts/united-kingdom/london?services=bdsm,gfe&verified=1');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<meta name="robots" content="noindex">');
      expect(res.body).toMatch(/<link rel="canonical" href="[^"?]*\/escorts\/united-kingdom\/london">/);
      expect(res.body).toContain('Ana Filter');
      expect(res.body).not.toContain('Bella Filter');
      expect(res.body).not.toContain('Crowd a');
      // The SPA's cache is seeded under the key it asks with (the normalised filter).
      expect(res.body).toContain(
        '"list",{"category":"escorts","country":"united-kingdom","place":"london"},"services=bdsm%2Cgfe&verified=1"]',
      );
      const none = await as(pages).get('/escorts/united-kingdom/london?services=bdsm&verified=1');
      expect(none.body).toContain('No profile here matches these filters.');
    } finally {
      await pages.close();
    }
  });
});

// Last: it adds profiles in London, which the tests above do not expect.
describe('a filtered total past COUNTED_TOTAL_PAGES pages (decision 0735)', () => {
  it('says "more than" the counted pages on every page, and paging still reaches every row', async () => {
    const counted = COUNTED_TOTAL_PAGES * PAGE_SIZE;
    // One more than the counted pages hold, all offering massage (beside the crowd and Ana: 31).
    const masseuses: number[] = [];
    for (let i = 0; i <= counted; i++)
      masseuses.push(
        (await createAdvertiser(t.ctx, { screenName: `Masseuse ${i}`, services: ['massage'] })).account.id,
      );
    const massage = await allPages({ services: ['massage'] });
    expect(massage.rows).toHaveLength(counted + 1 + 31);
    expect(new Set(massage.totals)).toEqual(new Set([counted]));
    expect((await london({ services: ['massage'] })).total_more).toBe(true);
    // Search says the same; one fewer and its count is exact again.
    const search = async () => (await as(t).post('/api/directory/search?page=1', { q: 'masseuse' })).json();
    expect(await search()).toMatchObject({ total: counted, total_more: true, has_more: true });
    await t.ctx.db.update(profiles).set({ listed: false }).where(eq(profiles.userId, masseuses[0]));
    const found = await search();
    expect(found).toMatchObject({ total: counted, has_more: true });
    expect(found.total_more).toBeUndefined();
  });
});
