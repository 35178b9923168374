// The nearby walk in short reads, kept per version (issue 21 item 6, docs/decisions/0325): every page of
// the nearby list is what one plain query over all listings gives (cities nearest first, each in its
// directory order, each profile once at its nearest city), up to the page limit, whatever order the pages
// are asked in, for a category and a filter, and again after writes. The data is made to catch a walk that
// loses its place: a big city read in many stretches, with listings the list does not show between those
// it shows (unlisted, other categories, expired), bumped_at ties across stretch ends and microseconds that
// a JS Date would round off, and profiles listed in two cities.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEARBY_MAX_PAGE } from '#shared/schemas/directory.ts';
import { PAGE_SIZE, type Category } from '#shared/constants.ts';
import type { ListFilters } from '#shared/schemas/directory.ts';
import { queryRows } from '../../db/client';
import { bulkInsert } from '../../db/bulk-insert';
import { accounts, cities, listings, profiles } from '../../db/schema';
import { seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { SCAN_ROWS } from './nearby-ranks';
import { readCityStretches } from './directory.repo';
import type { Db } from '../../db/client';

let t: TestApp;
const BIG = 9_100_000;
const SMALL = 25; // cities BIG+1..BIG+25, further and further north
const IN_BIG = 360;
const PER_SMALL = 10;
const HERE = { lat: 50, lng: 8 };

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  await bulkInsert(
    t.ctx.db,
    cities,
    Array.from({ length: SMALL + 1 }, (_, k) => ({
      id: BIG + k,
      countryCode: 'DE',
      name: `Walk ${k}`,
      slug: `walk-${k}`,
      lat: HERE.lat + k * 0.1,
      lng: HERE.lng,
      timezone: 'Europe/Berlin',
    })),
  );
  const n = IN_BIG + SMALL * PER_SMALL;
  const stamp = Date.now().toString(36);
  const made = await t.ctx.db
    .insert(accounts)
    .values(
      Array.from({ length: n }, (_, i) => ({
        email: `walk${i}_${stamp}@example.test`,
        username: `walk${i}_${stamp}`,
        passwordHash: 'x',
        dateOfBirth: '1990-01-01',
        termsAcceptedAt: new Date(),
      })),
    )
    .returning({ id: accounts.id });
  const home = (i: number) => (i < IN_BIG ? BIG : BIG + 1 + Math.floor((i - IN_BIG) / PER_SMALL));
  await bulkInsert(
    t.ctx.db,
    profiles,
    made.map(({ id }, i) => ({
      userId: id,
      screenName: `Walk ${i}`,
      heading: 'A warm and friendly companion',
      gender: i % 5 === 0 ? ('male' as const) : ('female' as const),
      verificationStatus: i % 3 === 0 ? ('verified' as const) : ('none' as const),
      cityId: home(i),
      complete: true,
      listed: i % 7 !== 3,
    })),
  );
  const base = Date.now() - 3_600_000;
  await bulkInsert(t.ctx.db, listings, [
    // Four listings to a second (ties broken by id), in a shuffled order of ids.
    ...made.map(({ id }, i) => ({
      profileId: id,
      cityId: home(i),
      countryCode: 'DE',
      kind: 'home' as const,
      bumpedAt: new Date(base - Math.floor(((i * 37) % n) / 4) * 1000),
      expiresAt: null,
    })),
    // Profiles of far cities also on tour in the big one (met there first), some of the big one's in a
    // far city (met at home first), and tours in the big one that have ended (not shown).
    ...made.slice(IN_BIG, IN_BIG + 40).map(({ id }, i) => ({
      profileId: id,
      cityId: BIG,
      countryCode: 'DE',
      kind: 'additional' as const,
      bumpedAt: new Date(base - i * 9000),
      expiresAt: null,
    })),
    ...made.slice(0, 30).map(({ id }, i) => ({
      profileId: id,
      cityId: BIG + SMALL,
      countryCode: 'DE',
      kind: 'additional' as const,
      bumpedAt: new Date(base + 1000),
      expiresAt: i % 2 ? new Date(Date.now() - 60_000) : null,
    })),
    ...made.slice(IN_BIG + 40, IN_BIG + 60).map(({ id }) => ({
      profileId: id,
      cityId: BIG,
      countryCode: 'DE',
      kind: 'additional' as const,
      bumpedAt: new Date(base - 5000),
      expiresAt: new Date(Date.now() - 60_000),
    })),
  ]);
  // Ages shown by 4 in 11, "available now" for half: the lists that read a partial city index (moduli
  // that the other facts, by i % 3, 5 and 7, do not line up with).
  await t.ctx.db.execute(
    sql`update profiles set shown_birth_date = '1994-05-01' where city_id between ${BIG} and ${BIG + SMALL} and user_id % 11 < 4`,
  );
  await t.ctx.db.execute(
    sql`update profiles set available_until = now() + interval '1 day' where city_id between ${BIG} and ${BIG + SMALL} and user_id % 2 = 0`,
  );
  // An "available now" that has ended for some others: in the partial index, never shown as available.
  await t.ctx.db.execute(
    sql`update profiles set available_until = now() - interval '1 hour' where city_id between ${BIG} and ${BIG + SMALL} and user_id % 2 = 1 and user_id % 3 = 0`,
  );
  // A video for 5 in 13 (the video list's stretches read its index and leave its test out of `ok`).
  await t.ctx.db.execute(
    sql`insert into media (user_id, type, status, storage_key, mime)
        select user_id, 'video', 'approved', 'v/' || user_id || '/walk.mp4', 'video/mp4' from profiles
        where city_id between ${BIG} and ${BIG + SMALL} and user_id % 13 < 5`,
  );
  // Microseconds in every bumped_at, as now() writes them.
  await t.ctx.db.execute(
    sql`update listings set bumped_at = date_trunc('second', bumped_at) + interval '654321 microseconds'
        where city_id between ${BIG} and ${BIG + SMALL}`,
  );
});
afterAll(() => t.close());

interface Item {
  id: number;
  distance_km: number;
}
interface Page {
  data: Item[];
  has_more: boolean;
}

const page = async (n: number, extra: object = {}): Promise<Page> => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/directory/nearby?page=${n}`,
    payload: { ...HERE, ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/**
 * The whole list in one plain query: every shown listing, cities nearest first (here: by latitude, north
 * of the visitor), each city's by the ranking rule, then each profile at its first listing.
 */
async function expected(where = sql`true`): Promise<number[]> {
  const rows = await queryRows<{ profile_id: number }>(
    t.ctx.db,
    sql`select l.profile_id from listings l join profiles p on p.user_id = l.profile_id join cities c on c.id = l.city_id
        where c.id between ${BIG} and ${BIG + SMALL} and p.listed
          and (l.expires_at is null or l.expires_at > ${t.ctx.now().toISOString()}::timestamptz) and ${where}
        order by c.lat, l.bumped_at desc, l.id`,
  );
  return [...new Set(rows.map((r) => Number(r.profile_id)))];
}

/** Pages 1.. until the last (or the limit), page `first` asked before the others: their items in order. */
async function walk(extra: object = {}, first = 1) {
  const early = await page(first, extra);
  const items: Item[] = [];
  let n = 0;
  let last: Page;
  do {
    n++;
    last = n === first ? early : await page(n, extra);
    items.push(...last.data);
  } while (last.has_more);
  return { items, last, count: n };
}

function expectList(items: Item[], want: number[]) {
  expect(items.map((i) => i.id)).toEqual(want);
  const km = items.map((i) => i.distance_km);
  expect(km).toEqual([...km].sort((a, b) => a - b));
}

describe('the nearby walk', () => {
  it('reads the big city in several stretches (the data is shaped to test them)', async () => {
    expect(IN_BIG).toBeGreaterThan(2 * SCAN_ROWS);
  });

  it('gives the plain query`s list up to the page limit, a deep page asked first', async () => {
    const want = await expected();
    expect(want.length).toBeGreaterThan(NEARBY_MAX_PAGE * PAGE_SIZE);
    const { items, last, count } = await walk({}, 13);
    expect(count).toBe(NEARBY_MAX_PAGE);
    expect(last.has_more).toBe(false);
    expectList(items, want.slice(0, NEARBY_MAX_PAGE * PAGE_SIZE));
  });

  it('gives a category`s list and a filtered list to their ends', async () => {
    for (const [extra, where] of [
      [{ category: 'male' }, sql`p.gender = 'male'`],
      [
        { category: 'female', filters: { verified: true } },
        sql`p.gender = 'female' and p.verification_status = 'verified'`,
      ],
      // Lists whose stretches read a partial city index (walkedPart): the entries that show an age; those
      // available now, an age tested on each.
      [{ filters: { age_min: 25 } }, sql`p.shown_birth_date is not null`],
      [
        { filters: { available: true, age_max: 40 } },
        sql`p.available_until > now() and p.shown_birth_date is not null`,
      ],
      [{ category: 'male', filters: { age_min: 25 } }, sql`p.gender = 'male' and p.shown_birth_date is not null`],
      [{ filters: { video: true, available: true } }, sql`p.user_id % 13 < 5 and p.available_until > now()`],
      [{ filters: { video: true } }, sql`p.user_id % 13 < 5`],
    ] as const) {
      const want = await expected(where);
      expect(want.length).toBeLessThan(NEARBY_MAX_PAGE * PAGE_SIZE);
      expect(want.length, JSON.stringify(extra)).toBeGreaterThan(PAGE_SIZE);
      const { items, last } = await walk(extra, 3);
      expect(last.has_more).toBe(false);
      expectList(items, want);
    }
  });

  it('follows writes at once: a hidden profile leaves, a top-up moves a far one to its city`s top', async () => {
    await walk({}, 5); // every city's ranks read and kept under this version
    const before = await expected();
    const hidden = before[3];
    const far = before[400];
    await t.ctx.db.execute(sql`update profiles set listed = false where user_id = ${hidden}`);
    await t.ctx.db.execute(sql`update listings set bumped_at = now() where profile_id = ${far} and kind = 'home'`);
    const want = await expected();
    expect(want).not.toContain(hidden);
    expect(want.indexOf(far)).toBeLessThan(400);
    const { items } = await walk({}, 9);
    expectList(items, want.slice(0, NEARBY_MAX_PAGE * PAGE_SIZE));
  });

  // The statement the walk runs, planned with scans other than an index's ruled out: an index-only scan
  // of the city rank index (decision 0738), or of the partial one of the list's rarest part (walkedPart),
  // no profile or listing row read.
  it.each<[Category, ListFilters | undefined, string]>([
    ['female', { verified: true }, 'directory_entries_city_rank'],
    ['female', { verified: true, age_min: 21 }, 'directory_entries_city_age'],
    ['escorts', { available: true, age_max: 40 }, 'directory_entries_city_available'],
    ['male', { video: true }, 'directory_entries_city_video'],
    ['dom', { age_min: 21 }, 'directory_entries_city_dom'],
  ])('reads each stretch of a %s list filtered %j from %s alone', async (category, filters, index) => {
    let statement: SQL | undefined;
    const capture = { execute: async (q: SQL) => ((statement = q), { rows: [] }) } as unknown as Db;
    await readCityStretches(
      capture,
      [
        { cityId: BIG, after: null, limit: 30 },
        { cityId: BIG + 1, after: { bumped_at: '2026-01-01 00:00:00.123456+00', id: 5 }, limit: 10 },
      ],
      category,
      new Date(),
      filters,
    );
    const plan = await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const rows = await queryRows<Record<string, string>>(tx, sql`explain ${statement!}`);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan, plan).toMatch(new RegExp(`Index Only Scan using ${index}\\b`));
    expect(plan).not.toMatch(/\b(profiles|listings)\b/);
  });
});
