// A search page has two plans (decision 0736): rare words read the matching profiles first and sort
// them, common ones walk the ranking. Both return the same rows in the same order, on every page and with
// filters; the estimate that picks between them bounds the real number of matches from above. On PGlite
// and PostgreSQL.
import { eq, type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { profiles } from '../../db/schema';
import { createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import type { ListFilters } from '#shared/schemas/directory.ts';
import * as repo from './directory.repo';
import { mergesPostings, searchReadsMatches } from './directory.service';

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
      // The last of SERVICES is the facets' sign bit (migration 0028).
      services: i % 2 ? ['gfe'] : i % 4 ? ['massage'] : ['massage', 'tie_and_tease'],
      verified: i % 3 === 0,
    });
    if (i % 5 === 0) await t.ctx.db.update(profiles).set({ listed: false }).where(eq(profiles.userId, account.id));
    // Rates: in-call (a price) for half of them, out-call only for a quarter.
    if (i % 4 < 2)
      await t.ctx.db
        .update(profiles)
        .set({ rates: { incall: { '60min': 100 + i } }, currency: 'GBP' })
        .where(eq(profiles.userId, account.id));
    else if (i % 4 === 2)
      await t.ctx.db
        .update(profiles)
        .set({ rates: { outcall: { '60min': 150 } }, currency: 'GBP' })
        .where(eq(profiles.userId, account.id));
  }
  // Two whose texts hold words that contain "wombat" twice over ("wombat" and "wombats"): a merged read
  // (decision 0751) meets the first of them in both ranges and must give her once.
  // Two more moved to the top at the same moment, one holding only "wombats", the other only "wombat":
  // the merge of the two ranges must order them by listing (the first created first).
  const tie = new Date(Date.now() - 3 * 60_000 - 30_000);
  for (const [i, heading, at] of [
    [40, 'Wombats and wombat walks', new Date(Date.now() - 40 * 60_000)],
    [41, 'Wombats only', new Date(Date.now() - 41 * 60_000)],
    [42, 'Wombats at noon', tie],
    [43, 'Wombat at noon', tie],
  ] as const)
    await createAdvertiser(t.ctx, {
      screenName: `Planner ${i}`,
      heading,
      city: LONDON,
      bumpedAt: at,
      services: ['gfe'],
    });
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
      // A group of several words (the typo pass's corrections), two groups and a filter, part of a word
      // (the postings' vocabulary: "omba" is in "wombat"), and a two-letter word (the text index).
      [[['wombat', 'loud']], undefined],
      [[['evenings'], ['quiet']], { filters: { services: ['massage'] }, now }],
      [[['omba']], undefined],
      [[['ui']], undefined],
      // The facets in the postings (decision 0752): any of several services (one of them the sign bit),
      // every one of several flags, and with the facts only the entry holds (a price).
      [[['evenings']], { filters: { services: ['tie_and_tease', 'gfe'] }, now }],
      [[['planner']], { filters: { services: ['tie_and_tease'] }, now }],
      [[['planner']], { filters: { verified: true, incall: true }, now }],
      [[['wombat', 'loud']], { filters: { outcall: true }, now }],
      [[['planner']], { filters: { services: ['massage'], incall: true, price_max: 120, currency: 'GBP' }, now }],
      [[['quokka'], ['wombat']], { filters: { services: ['gfe', 'massage'], verified: true }, now }],
    ];
    for (const [groups, filters] of cases) {
      // The postings' words each group's words are part of: only for words the postings hold.
      const { known } = await repo.estimateSearch(t.ctx.db, groups);
      expect(!!known, JSON.stringify(groups)).toBe(repo.searchesPostings(groups));
      for (const [limit, offset] of [
        [7, 0],
        [7, 7],
        [25, 0],
      ]) {
        const walk = ids(await repo.searchByWords(t.ctx.db, groups, limit, offset, filters, false));
        const few = ids(await repo.searchByWords(t.ctx.db, groups, limit, offset, filters, true));
        expect(few, JSON.stringify([groups, filters, limit, offset])).toEqual(walk);
        if (known) {
          const merged = ids(await repo.searchByWords(t.ctx.db, groups, limit, offset, filters, false, known));
          expect(merged, `merged ${JSON.stringify([groups, filters, limit, offset])}`).toEqual(walk);
        }
      }
      // The total likewise (decision 0743: a rare query counts its matches as its page reads them).
      for (const cap of [3, 1000]) {
        const counted = await repo.countByWords(t.ctx.db, groups, cap, filters, false);
        expect(await repo.countByWords(t.ctx.db, groups, cap, filters, true)).toBe(counted);
        if (known) expect(await repo.countByWords(t.ctx.db, groups, cap, filters, false, known)).toBe(counted);
      }
      expect((await repo.searchByWords(t.ctx.db, groups, 50, 0, filters, true)).length).toBeGreaterThan(0);
    }
  });

  it('estimates at least as many matches as there are, and none for an unknown word', async () => {
    for (const groups of [[['wombat']], [['quokka'], ['wombat']], [['planner']], [['even']]]) {
      const found = await repo.countByWords(t.ctx.db, groups, 1000);
      expect(found).toBeGreaterThan(0);
      expect((await repo.estimateSearch(t.ctx.db, groups)).matches).toBeGreaterThanOrEqual(found);
    }
    expect((await repo.estimateSearch(t.ctx.db, [['zzyzx']])).matches).toBe(0);
    // The rarer group bounds the answer: "planner" is on every profile, "loud" on a quarter.
    expect((await repo.estimateSearch(t.ctx.db, [['planner'], ['loud']])).matches).toBeLessThan(
      (await repo.estimateSearch(t.ctx.db, [['planner']])).matches,
    );
  });
});

describe('which plan a search takes (decision 0743)', () => {
  it('reads the matches first while that reads fewer rows than the walk would pass', () => {
    const at500k = { entries: 460_000, matches: 2_400, groups: [2_400] };
    const at50k = { entries: 46_000, matches: 2_400, groups: [2_400] };
    // Rare words: always (decision 0736's floor).
    expect(searchReadsMatches({ entries: 46_000, matches: 1_000, groups: [1_000] }, 25, false)).toBe(true);
    // 2,400 matches of 460,000: the walk passes ~190 entries per row of page 1; reading 2,400 is cheaper.
    expect(searchReadsMatches(at500k, 25, false)).toBe(true);
    // Of 46,000 the walk passes ~19 per row: 480 rows for page 1, fewer than 2,400 matches.
    expect(searchReadsMatches(at50k, 25, false)).toBe(false);
    // A filter drops matches, the walk passes more: the matches first.
    expect(searchReadsMatches(at50k, 25, true)).toBe(true);
    // Deeper pages make the walk longer.
    expect(searchReadsMatches(at50k, 5 * 24 + 1, false)).toBe(true);
    // A common word stays a walk, even filtered.
    expect(searchReadsMatches({ entries: 460_000, matches: 200_000, groups: [200_000] }, 25, true)).toBe(false);
    // No statistics yet (entries 0): only the floor.
    expect(searchReadsMatches({ entries: 0, matches: 1_001, groups: [1_001] }, 25, true)).toBe(false);
  });

  it('reads far more matches first from the postings (decision 0748), filtered or not', () => {
    const at50k = { entries: 46_000, matches: 4_000, groups: [4_000] };
    // 4,000 of 46,000 from the text index: the walk (~290 entries for page 1) is cheaper; from the
    // postings, 4,000 index entries are.
    expect(searchReadsMatches(at50k, 25, false, false)).toBe(false);
    expect(searchReadsMatches(at50k, 25, false, true)).toBe(true);
    // Past about 15,800 of 460,000 the walk is cheaper again; filtered alike (decision 0751: the matches
    // are sorted before any facts are read), where the text index's rule stops at 4,800 at 50,000.
    expect(searchReadsMatches({ entries: 460_000, matches: 15_000, groups: [15_000] }, 25, false, true)).toBe(true);
    expect(searchReadsMatches({ entries: 460_000, matches: 17_000, groups: [17_000] }, 25, false, true)).toBe(false);
    expect(searchReadsMatches({ entries: 460_000, matches: 15_000, groups: [15_000] }, 25, true, true)).toBe(true);
    expect(searchReadsMatches({ entries: 46_000, matches: 4_600, groups: [4_600] }, 25, true, true)).toBe(true);
    expect(searchReadsMatches({ entries: 46_000, matches: 4_600, groups: [4_600] }, 25, true, false)).toBe(false);
  });

  it('puts the group with the fewest matches first, its known words likewise', () => {
    const estimate = { entries: 100, matches: 3, groups: [40, 3, 12], known: [['common'], ['rare', 'rarer'], []] };
    expect(repo.rarestFirst([['common'], ['rare'], ['middle']], estimate)).toEqual([['rare'], ['middle'], ['common']]);
    expect(repo.knownRarestFirst(estimate)).toEqual([['rare', 'rarer'], [], ['common']]);
  });

  it('knows the postings words each group is part of, and merges them while each group has few', async () => {
    const { known } = await repo.estimateSearch(t.ctx.db, [['wombat'], ['quokka', 'loud'], ['zzyzx']]);
    expect(known).toEqual([['wombat', 'wombats'], ['loud', 'quokka'], []]);
    expect(mergesPostings(known)).toEqual(known);
    const many = Array.from({ length: repo.SEARCH_MERGED_WORDS + 1 }, (_, i) => `word${i}`);
    expect(mergesPostings([['wombat'], many])).toBeUndefined();
    expect(mergesPostings(undefined)).toBeUndefined();
    // A group no known word contains finds nobody, page and count.
    expect(await repo.searchByWords(t.ctx.db, [['zzyzx']], 25, 0, undefined, false, [[]])).toEqual([]);
    expect(await repo.countByWords(t.ctx.db, [['zzyzx']], 121, undefined, false, [[]])).toBe(0);
  });

  it('finds a word new to the vocabulary at once, though the estimate that holds the known words is cached', async () => {
    const names = async () =>
      (await t.app.inject({ method: 'POST', url: '/api/directory/search?page=1', payload: { q: 'wombat' } }))
        .json()
        .data.map((p: { name: string }) => p.name) as string[];
    const before = await names();
    expect(before).toContain('Planner 43');
    expect(before).not.toContain('Planner 44');
    // "wombatish" is no word of any text yet: her statement adds it to the postings and the vocabulary,
    // and turns the directory's version, so the next search reads the known words again.
    const { account } = await createAdvertiser(t.ctx, { screenName: 'Planner 44', heading: 'Wombatish dreams' });
    expect(await names()).toContain('Planner 44');
    await t.ctx.db.update(profiles).set({ listed: false }).where(eq(profiles.userId, account.id));
  });

  it('reads a merged page in the ranking order, stopping when it is full (decision 0751)', async () => {
    // A table of a few hundred postings is read whole whatever the statement; at scale it is the index,
    // so the plan is asked for as it is at scale (no sequential or bitmap read of the postings).
    const explain = (statement: SQL, analyze: boolean) =>
      t.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
          tx,
          analyze ? sql`explain (analyze, format json) ${statement}` : sql`explain (format json) ${statement}`,
        );
        return JSON.stringify(row['QUERY PLAN']);
      });
    // "planner" is on every listed profile (36); page 1 of 3 rows reads 3 postings, not all of them.
    const plan = await explain(repo.searchRows([['planner']], 3, 0, undefined, false, [['planner']]), true);
    expect(plan).not.toContain('"Node Type":"Sort"');
    const postingsRead = [...plan.matchAll(/"Relation Name":"search_postings"[^}]*?"Actual Rows":(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    expect(postingsRead).toEqual([3]);
    // Two known words, merged: still in the ranking's order without a sort, with a filter too.
    const now = t.ctx.now();
    const gfe: { filters: ListFilters; now: Date } = { filters: { services: ['gfe'] }, now };
    for (const filters of [undefined, gfe]) {
      const two = await explain(repo.searchRows([['wombat']], 3, 0, filters, false, [['wombat', 'wombats']]), false);
      expect(two).toContain('Merge Append');
      expect(two).not.toContain('"Node Type":"Sort"');
    }
  });

  it('knows how many home entries there are once the table has statistics', async () => {
    await t.ctx.db.execute(sql`analyze directory_entries`);
    const { matches, entries } = await repo.estimateSearch(t.ctx.db, [['planner']]);
    expect(matches).toBeGreaterThan(0);
    // 40 advertisers, 8 of them unlisted: their home entries.
    expect(entries).toBeGreaterThanOrEqual(30);
    expect(entries).toBeLessThanOrEqual(40);
  });
});
