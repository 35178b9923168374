// The directory's page statements are named (docs/decisions/0740): on PostgreSQL a connection prepares a
// page's statement once and runs it again by name, with the same rows as unnamed; a process names at most
// MAX_NAMED_STATEMENTS texts, one name per text, and none when DATABASE_PREPARED_STATEMENTS is off.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetStatementNames, MAX_NAMED_STATEMENTS, queryRows, statementName } from '../../db/client';
import { createAdvertiser, seedGeo } from '../../test/factories';
import { backend, createTestApp, type TestApp } from '../../test/helpers';
import * as repo from './directory.repo';

let t: TestApp;

beforeAll(async () => {
  // Pages named by other files of this worker count against the cap, and unnamed pages prepare nothing.
  forgetStatementNames();
  t = await createTestApp();
  await seedGeo(t.ctx);
  for (let i = 0; i < 5; i++)
    await createAdvertiser(t.ctx, { bumpedAt: new Date(Date.now() - i * 60_000), services: ['massage'] });
});
afterAll(() => t.close());

describe('named page statements', () => {
  it('one name per text, the same name for the same text', () => {
    const a = statementName('select 1 as named_a');
    expect(a).toMatch(/^d_[0-9a-f]{24}$/);
    expect(statementName('select 1 as named_a')).toBe(a);
    expect(statementName('select 1 as named_b')).not.toBe(a);
  });

  it.runIf(backend === 'postgres')(
    'a connection prepares a page once, runs it by name, and finds what the unnamed statement finds',
    async () => {
      const scope = {
        countryCode: 'GB',
        category: 'escorts' as const,
        now: new Date(),
        filters: { services: ['massage' as const] },
      };
      const named = await t.ctx.db.transaction(async (tx) => {
        const first = await repo.findListings(tx as never, scope, 24, 0);
        const again = await repo.findListings(tx as never, { ...scope, now: new Date() }, 2, 1);
        // Another page shape (a city's; unfiltered) is another statement under another name: a name is
        // never given to two texts (node-postgres refuses that), though it is made from the rows alone.
        const city = await repo.findListings(tx as never, { ...scope, cityId: 2643743, filters: undefined }, 24, 0);
        const prepared = await queryRows<{ name: string }>(
          tx,
          sql`select name from pg_prepared_statements where name like 'd\\_%'`,
        );
        return { first, again, city, prepared: prepared.map((r) => r.name) };
      });
      expect(named.first.length).toBeGreaterThanOrEqual(5);
      expect(named.again.map((r) => r.listing_id)).toEqual(named.first.slice(1, 3).map((r) => r.listing_id));
      expect(named.city.length).toBeGreaterThanOrEqual(5);
      expect(named.prepared).toHaveLength(2);
      // The same page as an unnamed statement (the text run through sql.raw is another statement).
      const plain = await queryRows<{ id: number }>(
        t.ctx.db,
        sql`select e.listing_id as id from directory_entries e
          where e.country_code = 'GB' and e.is_primary and e.services && array['massage']::text[]
          order by e.bumped_at desc, e.listing_id`,
      );
      expect(named.first.map((r) => r.listing_id)).toEqual(plain.map((r) => Number(r.id)));
    },
  );

  it('names at most MAX_NAMED_STATEMENTS texts in a process', () => {
    const names = Array.from({ length: MAX_NAMED_STATEMENTS + 5 }, (_, i) => statementName(`select ${i} as cap`));
    expect(names.filter(Boolean).length).toBeLessThanOrEqual(MAX_NAMED_STATEMENTS);
    expect(names.at(-1)).toBeUndefined();
    // A text named before the cap was reached keeps its name.
    expect(statementName('select 1 as named_a')).toMatch(/^d_/);
    // The next files of this worker name their pages again.
    forgetStatementNames();
    expect(statementName('select 1 as cap_after')).toMatch(/^d_/);
  });
});
