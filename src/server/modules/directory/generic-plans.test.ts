// The directory lists' page statements run on connections of their own, planned once and generically
// (docs/decisions/0745): on PostgreSQL a third of the pool has plan_cache_mode = force_generic_plan and runs
// only the list pages; every other statement (search pages among them) keeps the custom plans of the main
// connections. Each list shape's generic plan walks its index, whatever the values; PGlite has no such
// connections and runs the pages itself.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '#shared/constants.ts';
import type { ListFilters } from '#shared/schemas/directory.ts';
import { forgetStatementNames, genericPlansOf, queryRows, type Db } from '../../db/client';
import { createAdvertiser, LONDON, seedGeo } from '../../test/factories';
import { backend, createTestApp, type TestApp } from '../../test/helpers';
import * as repo from './directory.repo';

let t: TestApp;

beforeAll(async () => {
  // Pages named by other files of this worker count against the cap, and unnamed pages prepare nothing.
  forgetStatementNames();
  // A pool of 3: one connection for the list pages, so this test sees every statement it prepared.
  t = await createTestApp({ DATABASE_POOL_SIZE: '3' });
  await seedGeo(t.ctx);
  for (let i = 0; i < 4; i++)
    await createAdvertiser(t.ctx, { bumpedAt: new Date(Date.now() - i * 60_000), services: ['massage'] });
  // Plans made as on a big database, where reading the whole table costs more than a walk (the plan is
  // made, and kept, at a statement's first run on the connection).
  if (backend === 'postgres') {
    const lists = genericPlansOf(t.ctx.db);
    await lists.execute(sql`set enable_seqscan = off`);
    await lists.execute(sql`set enable_bitmapscan = off`);
  }
});
afterAll(() => t.close());

interface Prepared {
  name: string;
  statement: string;
  generic_plans: number;
  custom_plans: number;
  parameter_types: string;
}
const preparedOn = (db: Db) =>
  queryRows<Prepared>(
    db,
    sql`select name, statement, generic_plans::int, custom_plans::int, cardinality(parameter_types)::text as parameter_types
      from pg_prepared_statements where name like 'd\\_%'`,
  );

const scope = (o: { cityId?: number; filters?: ListFilters; category?: Category } = {}) => ({
  countryCode: 'GB',
  category: 'escorts' as Category,
  now: new Date(),
  ...o,
});

describe('generic plans of the list pages', () => {
  it.runIf(backend === 'pglite')('PGlite runs the pages on its one connection', () => {
    expect(genericPlansOf(t.ctx.db)).toBe(t.ctx.db);
  });

  it.runIf(backend === 'postgres')(
    'list pages run on their own connections with generic plans; search pages do not',
    async () => {
      const lists = genericPlansOf(t.ctx.db);
      expect(lists).not.toBe(t.ctx.db);
      const [mode] = await queryRows<{ m: string }>(lists, sql`select current_setting('plan_cache_mode') as m`);
      expect(mode.m).toBe('force_generic_plan');
      const [main] = await queryRows<{ m: string }>(t.ctx.db, sql`select current_setting('plan_cache_mode') as m`);
      expect(main.m).toBe('auto');

      const first = await repo.findListings(t.ctx.db, scope(), 25, 0);
      const again = await repo.findListings(t.ctx.db, scope({ filters: undefined }), 2, 1);
      expect(first.length).toBeGreaterThanOrEqual(4);
      expect(again.map((r) => r.listing_id)).toEqual(first.slice(1, 3).map((r) => r.listing_id));
      await repo.searchByWords(t.ctx.db, [['massage']], 25, 0);

      const onLists = await preparedOn(lists);
      const countryPage = onLists.find((p) => p.statement.includes('e.is_primary'));
      expect(countryPage).toMatchObject({ generic_plans: 2, custom_plans: 0 });
      // The search page was prepared on a main connection, not here.
      expect(onLists.some((p) => p.statement.includes("e.kind = 'home'"))).toBe(false);
    },
  );

  it
    .runIf(backend === 'postgres')
    .each<[string, { cityId?: number; filters?: ListFilters; category?: Category }, string]>([
      ['a country page', {}, 'directory_entries_country_rank'],
      [
        'a filtered country page',
        { filters: { services: ['massage'], age_min: 25, age_max: 40 } },
        'directory_entries_country_age',
      ],
      ['a filtered country page', { filters: { services: ['massage'] } }, 'directory_entries_country_rank'],
      ['a country page with video', { filters: { video: true } }, 'directory_entries_country_video'],
      ['a city page', { cityId: LONDON.id }, 'directory_entries_city_rank'],
      [
        'a city page available now',
        { cityId: LONDON.id, filters: { available: true } },
        'directory_entries_city_available',
      ],
      ["a country's dominatrix page", { category: 'dom' }, 'directory_entries_country_dom'],
      ["a city's men's page", { cityId: LONDON.id, category: 'male' }, 'directory_entries_city_male'],
      // The expired listings' branch starts from the expired listings and reads each one's entry by its
      // key; as a join it walked the category's whole city index (every trans entry of every city).
      [
        "a country's filtered trans page: its expired listings' entries",
        { category: 'trans', filters: { verified: true, age_min: 20, age_max: 30 } },
        'directory_entries_pkey',
      ],
    ])('%s: its generic plan walks %s', async (_, o, index) => {
    const lists = genericPlansOf(t.ctx.db);
    // Again just before the page: the pool may have replaced an idle connection since (settings and
    // plans are a connection's).
    await lists.execute(sql`set enable_seqscan = off`);
    await lists.execute(sql`set enable_bitmapscan = off`);
    // The statement this page ran: the one whose generic plan ran once more.
    const before = new Map((await preparedOn(lists)).map((p) => [p.name, p.generic_plans]));
    await repo.findListings(t.ctx.db, scope(o), 25, 0);
    const ran = (await preparedOn(lists)).filter((p) => p.generic_plans > (before.get(p.name) ?? 0));
    expect(ran).toHaveLength(1);
    const page = ran[0];
    // A generic plan does not depend on the values: each parameter is null here.
    const args = Array.from({ length: Number(page.parameter_types) }, () => 'null').join(', ');
    const plan = await queryRows<Record<string, string>>(lists, sql.raw(`explain execute ${page.name}(${args})`));
    const text = plan.map((r) => Object.values(r)[0]).join('\n');
    // An entry read by its key is an index scan (its facts are in the heap); a list's walk, index-only.
    const scan = index === 'directory_entries_pkey' ? 'Index Scan' : 'Index Only Scan';
    expect(text).toMatch(new RegExp(`${scan} using ${index}\\b`));
    // A country page reads no city's index.
    if (!o.cityId) expect(text).not.toMatch(/directory_entries_city_/);
  });
});
