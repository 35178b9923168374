// A search page has two plans (decision 0736): rare words read the matching profiles first and sort
// them, common ones walk the ranking. Both return the same rows in the same order, on every page and with
// filters; the estimate that picks between them bounds the real number of matches from above. On PGlite
// and PostgreSQL.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '../../db/schema';
import { createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import type { ListFilters } from '#shared/schemas/directory.ts';
import * as repo from './directory.repo';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const headings = ['Quiet wombat evenings', 'Wombat and quokka fan', 'Loud quokka nights', 'Calm evenings'];
  for (let i = 0; i < 40; i++) {
    const { account } = await createAdvertiser(t.ctx, {
      screenName: `Planner ${i}`,
      heading: headings[i % headings.length],
      city: i % 3 ? LONDON : MANCHESTER,
      bumpedAt: new Date(Date.now() - ((i * 7) % 40) * 60_000),
      services: i % 2 ? ['gfe'] : ['massage'],
    });
    if (i % 5 === 0) await t.ctx.db.update(profiles).set({ listed: false }).where(eq(profiles.userId, account.id));
  }
  await repo.foldSearchWords(t.ctx.db);
});

const ids = (rows: Array<{ listing_id: number }>) => rows.map((r) => r.listing_id);

describe('search plans', () => {
  it('gives the same pages whichever plan reads them, filtered or not', async () => {
    const now = t.ctx.now();
    const cases: Array<[string[][], { filters: ListFilters; now: Date } | undefined]> = [
      [[['wombat']], undefined],
      [[['quokka'], ['wombat']], undefined],
      [[['evenings']], { filters: { services: ['gfe'] }, now }],
      [[['planner']], undefined],
      [[['planner']], { filters: { services: ['massage'] }, now }],
    ];
    for (const [groups, filters] of cases) {
      for (const [limit, offset] of [
        [7, 0],
        [7, 7],
        [25, 0],
      ]) {
        const walk = ids(await repo.searchByWords(t.ctx.db, groups, limit, offset, filters, false));
        const few = ids(await repo.searchByWords(t.ctx.db, groups, limit, offset, filters, true));
        expect(few, JSON.stringify([groups, filters, limit, offset])).toEqual(walk);
      }
      expect((await repo.searchByWords(t.ctx.db, groups, 50, 0, filters, true)).length).toBeGreaterThan(0);
    }
  });

  it('estimates at least as many matches as there are, and none for an unknown word', async () => {
    for (const groups of [[['wombat']], [['quokka'], ['wombat']], [['planner']], [['even']]]) {
      const found = await repo.countByWords(t.ctx.db, groups, 1000);
      expect(found).toBeGreaterThan(0);
      expect(await repo.estimateMatches(t.ctx.db, groups)).toBeGreaterThanOrEqual(found);
    }
    expect(await repo.estimateMatches(t.ctx.db, [['zzyzx']])).toBe(0);
    // The rarer group bounds the answer: "planner" is on every profile, "loud" on a quarter.
    expect(await repo.estimateMatches(t.ctx.db, [['planner'], ['loud']])).toBeLessThan(
      await repo.estimateMatches(t.ctx.db, [['planner']]),
    );
  });
});
