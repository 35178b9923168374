// Search's postings (decision 0748, migration 0026): kept by directory_entries' triggers, they hold
// exactly each listed profile's home entry's words with her rank keys and facets (decision 0752,
// migration 0028), through every kind of change; a
// word is found the moment her change commits (no fold needed); an unfiltered rare search reads no row of
// directory_entries. On PGlite and PostgreSQL.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listings, media, profiles } from '../../db/schema';
import { SERVICES } from '#shared/constants.ts';
import { queryRows } from '../../db/client';
import { createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { backend, createTestApp, type TestApp } from '../../test/helpers';
import type { ListFilters } from '#shared/schemas/directory.ts';
import * as repo from './directory.repo';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});

const FACETS = sql`search_facets(e.services, e.incall, e.outcall, e.verified, e.video)`;

/** Postings that differ from what the entries say now (both ways): none when they are kept right. */
async function drift() {
  return queryRows<{ word: string; listing_id: number }>(
    t.ctx.db,
    sql`(select w as word, e.bumped_at, e.listing_id, ${FACETS} from directory_entries e, search_words_of(e.search_text) w
        where e.kind = 'home'
      except select word, bumped_at, listing_id, facets from search_postings)
      union all
      (select word, bumped_at, listing_id, facets from search_postings
      except select w, e.bumped_at, e.listing_id, ${FACETS} from directory_entries e, search_words_of(e.search_text) w
        where e.kind = 'home')`,
  );
}

/** The matches read first; the merged read of the known words (decision 0751) gives the same, when it applies. */
async function search(groups: string[][]) {
  const ids = (rows: Array<{ listing_id: number }>) => rows.map((r) => r.listing_id);
  const few = ids(await repo.searchByWords(t.ctx.db, groups, 25, 0, undefined, true));
  const { known } = await repo.estimateSearch(t.ctx.db, groups);
  if (known) expect(ids(await repo.searchByWords(t.ctx.db, groups, 25, 0, undefined, false, known))).toEqual(few);
  return few;
}

describe('search postings', () => {
  it('hold each home entry words through new ads, edits, bumps, unlisting and deletion', async () => {
    const made = [];
    for (let i = 0; i < 6; i++)
      made.push(
        await createAdvertiser(t.ctx, {
          screenName: `Postings ${i}`,
          heading: i % 2 ? 'Velvet harbour evenings' : 'Amber lantern nights',
          city: i % 2 ? LONDON : MANCHESTER,
        }),
      );
    expect(await drift()).toEqual([]);
    const words = await queryRows<{ n: number }>(
      t.ctx.db,
      sql`select count(*)::int as n from search_postings where word = 'velvet'`,
    );
    expect(words[0].n).toBe(3);

    const [a, b, c, d] = made.map((m) => m.account.id);
    // An edit of her text, a bump (rank keys), unlisting, and an account's deletion.
    await t.ctx.db
      .update(profiles)
      .set({ searchText: 'postings 0 copper harbour mornings' })
      .where(eq(profiles.userId, a));
    await t.ctx.db
      .update(listings)
      .set({ bumpedAt: new Date(Date.now() + 60_000) })
      .where(eq(listings.profileId, b));
    await t.ctx.db.update(profiles).set({ listed: false }).where(eq(profiles.userId, c));
    await t.ctx.db.execute(sql`delete from accounts where id = ${d}`);
    expect(await drift()).toEqual([]);
    expect(await search([['velvet']])).toHaveLength(2);
  });

  it('keep her facets through changes of services, rates, verification and video', async () => {
    const { account } = await createAdvertiser(t.ctx, { heading: 'Facet keeper', services: ['gfe'], city: LONDON });
    const facets = async () => {
      const rows = await queryRows<{ facets: number }>(
        t.ctx.db,
        sql`select distinct p.facets from search_postings p join directory_entries e using (listing_id)
          where e.profile_id = ${account.id} and e.kind = 'home'`,
      );
      expect(rows).toHaveLength(1);
      return rows[0].facets;
    };
    const want = (f: Parameters<typeof repo.facetsOf>[0]) => {
      const { any, all } = repo.facetsOf(f);
      return any | all;
    };
    expect(await facets()).toBe(want({ services: ['gfe'] }));
    const id = account.id;
    await t.ctx.db
      .update(profiles)
      .set({ services: ['gfe', 'tie_and_tease'], rates: { incall: { '60min': 120 }, outcall: { '60min': 200 } } })
      .where(eq(profiles.userId, id));
    expect(await facets()).toBe(want({ services: ['gfe', 'tie_and_tease'], incall: true, outcall: true }));
    // Each fact alone: out-call dropped (the same services), then verified.
    await t.ctx.db
      .update(profiles)
      .set({ rates: { incall: { '60min': 120 } } })
      .where(eq(profiles.userId, id));
    expect(await facets()).toBe(want({ services: ['gfe', 'tie_and_tease'], incall: true }));
    await t.ctx.db.update(profiles).set({ verificationStatus: 'verified' }).where(eq(profiles.userId, id));
    expect(await facets()).toBe(want({ services: ['gfe', 'tie_and_tease'], incall: true, verified: true }));
    await t.ctx.db
      .insert(media)
      .values({ userId: id, type: 'video', status: 'approved', storageKey: 'v/facets.mp4', mime: 'video/mp4' });
    expect(await facets()).toBe(
      want({ services: ['gfe', 'tie_and_tease'], incall: true, verified: true, video: true }),
    );
    await t.ctx.db.update(profiles).set({ services: [], rates: {} }).where(eq(profiles.userId, id));
    expect(await facets()).toBe(want({ verified: true, video: true }));
    expect(await drift()).toEqual([]);
  });

  it('spell each service and flag as the same bit in SQL (search_facets) and in the app (facetsOf)', async () => {
    const [row] = await queryRows<{ bits: number[]; flags: number[] }>(
      t.ctx.db,
      sql`select array(select search_facets(array[s], false, false, false, false) from unnest(${sql.param([...SERVICES])}::text[]) with ordinality u(s, i) order by i) as bits,
        array[search_facets('{}', true, false, false, false), search_facets('{}', false, true, false, false),
          search_facets('{}', false, false, true, false), search_facets('{}', false, false, false, true)] as flags`,
    );
    expect(row.bits).toEqual(SERVICES.map((s) => repo.facetsOf({ services: [s] }).any));
    expect(new Set(row.bits).size).toBe(SERVICES.length);
    expect(row.flags).toEqual(
      (['incall', 'outcall', 'verified', 'video'] as const).map((f) => repo.facetsOf({ [f]: true }).all),
    );
    // Every bit of the 32 is taken: a new service needs wider facets (a new migration).
    expect(SERVICES.length + 4).toBeLessThanOrEqual(32);
    // A word that is no service is refused, not read as another bit.
    expect(() => repo.facetsOf({ services: ['nonsense' as never] })).toThrow(/Not a service/);
  });

  it('finds a word the moment it is saved, before any fold of search_words', async () => {
    const { account } = await createAdvertiser(t.ctx, { screenName: 'Zephyrine Quillon', city: LONDON });
    const [entry] = await queryRows<{ listing_id: number }>(
      t.ctx.db,
      sql`select listing_id from directory_entries where profile_id = ${account.id} and kind = 'home'`,
    );
    const unfolded = await queryRows(t.ctx.db, sql`select 1 from search_words where word = 'quillon'`);
    expect(unfolded).toHaveLength(0);
    expect(await search([['quillon']])).toEqual([entry.listing_id]);
    // Part of a word, and the count as the page reads it.
    expect(await search([['ephyri']])).toEqual([entry.listing_id]);
    expect(await repo.countByWords(t.ctx.db, [['ephyri']], 10, undefined, true)).toBe(1);
  });

  it('keeps the vocabulary to the words postings hold once a fold changed the word list', async () => {
    const { account } = await createAdvertiser(t.ctx, { heading: 'Xylophonist wanderer', city: LONDON });
    const has = async (w: string) =>
      (await queryRows(t.ctx.db, sql`select 1 from search_vocabulary where word = ${w}`)).length > 0;
    expect(await has('xylophonist')).toBe(true);
    await t.ctx.db.update(profiles).set({ searchText: 'plain wanderer' }).where(eq(profiles.userId, account.id));
    expect(await drift()).toEqual([]);
    await repo.foldSearchWords(t.ctx.db);
    expect(await has('xylophonist')).toBe(false);
    expect(await has('wanderer')).toBe(true);
    expect(await search([['xylophonist']])).toEqual([]);
  });

  it.runIf(backend === 'postgres')('skips the prune rather than hold writers up behind a busy writer', async () => {
    await t.ctx.db.transaction(async (tx) => {
      // A writer that added a new word, not yet committed: the prune's lock waits for it, 200 ms at most.
      await tx.execute(sql`insert into search_vocabulary (word) values ('unhurried') on conflict do nothing`);
      const [r] = await queryRows<{ n: number }>(t.ctx.db, sql`select search_vocabulary_prune() as n`);
      expect(r.n).toBe(-1);
    });
    const [r] = await queryRows<{ n: number }>(t.ctx.db, sql`select search_vocabulary_prune() as n`);
    expect(r.n).toBeGreaterThanOrEqual(1);
  });

  it('reads the postings for words of a-z and 0-9 only; others, as before, through the text index', async () => {
    expect(repo.searchesPostings([['anna'], ['berlin', 'b3rl1n']])).toBe(true);
    // Two letters, other scripts and signs PostgreSQL's locale may split at: the text index.
    for (const w of ['an', 'москва', '½ab', 'zoë']) expect(repo.searchesPostings([['anna'], [w]]), w).toBe(false);
    const { account } = await createAdvertiser(t.ctx, { heading: 'Москва ночью', city: LONDON });
    const [entry] = await queryRows<{ listing_id: number }>(
      t.ctx.db,
      sql`select listing_id from directory_entries where profile_id = ${account.id} and kind = 'home'`,
    );
    expect(await search([['москва']])).toEqual([entry.listing_id]);
  });

  it('reads no row of directory_entries for an unfiltered search, and her facts with filters', async () => {
    await t.ctx.db.execute(sql`analyze search_postings`);
    const plan = async (filters?: { filters: ListFilters; now: Date }) =>
      JSON.stringify(
        await queryRows(
          t.ctx.db,
          sql`explain (format json) ${repo.searchRows([['harbour'], ['evenings']], 25, 0, filters, true)}`,
        ),
      );
    const unfiltered = await plan();
    expect(unfiltered).toContain('search_postings');
    expect(unfiltered).not.toContain('directory_entries');
    // Services and flags are the postings' facets (decision 0752); an age is her entry's.
    const now = t.ctx.now();
    const facetsOnly = await plan({ filters: { verified: true, services: ['gfe'], incall: true }, now });
    expect(facetsOnly).not.toContain('directory_entries');
    expect(facetsOnly).toContain('facets');
    expect(await plan({ filters: { verified: true, age_min: 25 }, now })).toContain('directory_entries');
  });
});
