// The embedded database's vacuum and analysis (docs/decisions/0744): PGlite runs no autovacuum, so after
// updates an index-only walk of directory_entries fetches the heap for every entry it reads until the
// periodic task has run; on PostgreSQL the tasks leave the work to the server's autovacuum.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from './client';
import { maintainEmbedded } from './maintenance';
import { periodicTasks } from '../tasks';
import { createAdvertiser, seedGeo } from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  for (let i = 0; i < 30; i++) await createAdvertiser(t.ctx);
});
afterAll(() => t.close());

/** The heap rows an index-only walk of the UK's entries had to read (EXPLAIN ANALYZE's "Heap Fetches"). */
async function heapFetches(): Promise<number> {
  await t.ctx.db.execute(sql`set enable_seqscan = off`);
  await t.ctx.db.execute(sql`set enable_bitmapscan = off`);
  try {
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      t.ctx.db,
      sql`explain (analyze, timing off, costs off) select listing_id from directory_entries
        where country_code = 'GB' and is_primary order by bumped_at desc`,
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('Index Only Scan');
    return Number(/Heap Fetches: (\d+)/.exec(text)?.[1]);
  } finally {
    await t.ctx.db.execute(sql`reset enable_seqscan`);
    await t.ctx.db.execute(sql`reset enable_bitmapscan`);
  }
}

const analysed = async () =>
  (
    await queryRows<{ name: string }>(
      t.ctx.db,
      sql`select relname as name from pg_stat_user_tables where last_analyze > now() - interval '1 minute'`,
    )
  ).map((r) => r.name);

describe('vacuum and analysis of the embedded database', () => {
  it('are periodic tasks', () => {
    expect(periodicTasks.map((x) => x.name)).toEqual(
      expect.arrayContaining(['vacuum the embedded database', 'analyze the embedded database']),
    );
  });

  it('on PGlite leave index-only walks reading no heap row and fresh statistics; on PostgreSQL do nothing', async () => {
    const before = await heapFetches();
    const vacuumed = await maintainEmbedded(t.ctx, 'vacuum');
    if (t.ctx.dbKind === 'pglite') {
      expect(before).toBeGreaterThan(0);
      expect(vacuumed).toEqual(expect.arrayContaining(['directory_entries', 'listings', 'profiles', 'media']));
      expect(await heapFetches()).toBe(0);
      expect(await analysed()).not.toContain('listings');
      expect(await maintainEmbedded(t.ctx, 'analyze')).toEqual(vacuumed);
      expect(await analysed()).toEqual(expect.arrayContaining(['directory_entries', 'listings', 'profiles']));
    } else {
      expect(vacuumed).toEqual([]);
      expect(await maintainEmbedded(t.ctx, 'analyze')).toEqual([]);
      // Left to the server's autovacuum (off on this CI machine): no table of the scratch database was done.
      const [row] = await queryRows<{ n: number }>(
        t.ctx.db,
        sql`select count(*)::int as n from pg_stat_user_tables where last_vacuum is not null or last_analyze is not null`,
      );
      expect(Number(row.n)).toBe(0);
    }
  });
});
