// Rare filters read their own partial indexes (decision 0741, migration 0024): a country or city list
// filtered "with video" or "available now" walks only the entries that can match, in rank order. Each
// list's statement is planned with sequential and bitmap scans ruled out (as on a big database, where
// they cost more than a walk), and must name the filter's index; an unfiltered list keeps the rank index.
// Likewise the rare categories' lists and their own indexes (decision 0747), and an age filter's (0750).
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '#shared/constants.ts';
import type { ListFilters } from '#shared/schemas/directory.ts';
import { queryRows, type Db } from '../../db/client';
import { LONDON, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { countFilteredListings } from './directory.repo';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

/** The plan of the statement countFilteredListings runs for this list. */
async function planOf(filters: ListFilters | undefined, cityId?: number, category: Category = 'escorts') {
  let statement: SQL | undefined;
  const capture = { execute: async (q: SQL) => ((statement = q), { rows: [{ n: 0 }] }) } as unknown as Db;
  await countFilteredListings(capture, { countryCode: 'GB', cityId, category, now: new Date(), filters }, 120);
  return t.ctx.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_bitmapscan = off`);
    const rows = await queryRows<Record<string, string>>(tx, sql`explain ${statement!}`);
    return rows.map((r) => Object.values(r)[0]).join('\n');
  });
}

describe('rare filters and their indexes', () => {
  it.each<[ListFilters | undefined, number | undefined, string]>([
    [{ video: true }, undefined, 'directory_entries_country_video'],
    // (With an age too, either partial index serves; on these empty tables the planner cannot tell which
    // is smaller: at 500,000 profiles 5 % are available, a third show an age.)
    [{ available: true, verified: true }, undefined, 'directory_entries_country_available'],
    [{ video: true, services: ['massage'] }, LONDON.id, 'directory_entries_city_video'],
    [{ available: true }, LONDON.id, 'directory_entries_city_available'],
    // An age filter (decision 0750, migration 0027): the entries that show an age.
    [{ age_min: 25, age_max: 40, services: ['massage'] }, undefined, 'directory_entries_country_age'],
    [{ age_max: 30 }, LONDON.id, 'directory_entries_city_age'],
    [{ verified: true }, undefined, 'directory_entries_country_rank'],
    [undefined, LONDON.id, 'directory_entries_city_rank'],
  ])('%j in city %s walks %s', async (filters, cityId, index) => {
    expect(await planOf(filters, cityId)).toMatch(new RegExp(`Index Only Scan using ${index}\\b`));
  });

  // Rare categories (decision 0747, migration 0025): a men's, trans or dominatrix list reads its own index.
  it.each<[Category, number | undefined, ListFilters | undefined, string]>([
    ['dom', undefined, undefined, 'directory_entries_country_dom'],
    ['trans', undefined, { services: ['massage'] }, 'directory_entries_country_trans'],
    ['male', LONDON.id, undefined, 'directory_entries_city_male'],
    ['dom', LONDON.id, undefined, 'directory_entries_city_dom'],
    ['female', undefined, undefined, 'directory_entries_country_rank'],
    ['female', LONDON.id, undefined, 'directory_entries_city_rank'],
  ])('the %s list of city %s (filters %j) walks %s', async (category, cityId, filters, index) => {
    expect(await planOf(filters, cityId, category)).toMatch(new RegExp(`Index Only Scan using ${index}\\b`));
  });
});
