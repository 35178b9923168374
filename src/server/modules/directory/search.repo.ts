// SQL of the search (docs/decisions/0736, 0737, 0743, 0748, 0751, 0752): the home entries' search text,
// the postings and their vocabulary, the estimate of a search's rarity that picks its plan, the count,
// and typo correction over the word list (search_words). The filters and the page statement are
// listing-rows.repo.ts's; nothing else of the directory is read here.
import { and, like, or, sql, type SQL } from 'drizzle-orm';
import { SERVICES } from '#shared/constants.ts';
import type { ListFilters } from '#shared/schemas/directory.ts';
import { queryRows, type Db } from '../../db/client';
import { rankingOrderBy } from '#shared/ranking.ts';
import { and_, ENTRY_RANKING, filterCondition, pageOf } from './listing-rows.repo';

// ---------------------------------------------------------------- search

/** Words of a folded query; each must match the profile's search text (typo-tolerant trigram match). */
export function searchTerms(folded: string): string[] {
  return [...new Set(folded.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2))].slice(0, 6);
}

// Low enough for a swapped pair of letters in a short word ("lodnon" ~ "london" scores 0.27); only the
// three nearest words are kept, so a low bar does not flood the results.
const SIMILARITY = 0.25;
const likePattern = (t: string) => '%' + t.replace(/[\\%_]/g, '\\$&') + '%';

/** Every group must match: one of its words is a substring of the folded search text. */
function matchAll(groups: string[][]) {
  return and(...groups.map((words) => or(...words.map((w) => like(E_TEXT, likePattern(w))))));
}

/** The entry's copy of her search text (decision 0737). */
const E_TEXT = sql.raw('e.search_text');

/**
 * The home entries `e` (each listed profile's home listing) whose search text matches every group (the
 * exact pass gives one word per group; the typo-tolerant pass each query word's corrections) and the
 * visitor's filters: one condition for the search's page and its count, read from directory_entries
 * alone (decision 0737).
 */
const searchEntries = (groups: string[][], filters?: { filters: ListFilters; now: Date }) =>
  and_([sql`e.kind = 'home'`, matchAll(groups), filters && filterCondition(filters.filters, filters.now)])!;

/**
 * A page of search results, in the ranking's order. `few`: the words are rare enough (searchReadsMatches),
 * so the matching entries are read first through the text index, as a materialized set the planner
 * cannot walk the rank index for, with their ranking keys, and sorted; otherwise the home entries' rank
 * index is walked, each text tested, until the page is full. Either plan returns the same rows; the
 * planner's own choice between them rests on its guess of how many texts contain a substring, which was
 * off by enough to walk hundreds of thousands of rows for a word a few hundred profiles use (decision
 * 0736). The matches carry their keys (decision 0743): reading them again by listing id cost as much as
 * finding them.
 */
export async function searchByWords(
  db: Db,
  groups: string[][],
  limit: number,
  offset: number,
  filters?: { filters: ListFilters; now: Date },
  few = false,
  known?: string[][],
) {
  return pageOf(db, searchRows(groups, limit, offset, filters, few, known));
}

/** The ids and rank keys of a search page (searchByWords), as one statement. */
export const searchRows = (
  groups: string[][],
  limit: number,
  offset: number,
  filters: { filters: ListFilters; now: Date } | undefined,
  few: boolean,
  known?: string[][],
) => {
  const hits = fromPostings(groups, filters, few, known, true);
  if (hits)
    return sql`select hits.listing_id as id, hits.bumped_at from ${hits.from} ${hits.where}
      order by ${HITS_RANKING} limit ${limit} offset ${offset}`;
  return few
    ? sql`${hitsOf(groups, filters)} select hits.listing_id as id, hits.bumped_at from hits
      order by ${HITS_RANKING} limit ${limit} offset ${offset}`
    : sql`select e.listing_id as id, e.bumped_at from directory_entries e where ${searchEntries(groups, filters)}
      order by ${ENTRY_RANKING} limit ${limit} offset ${offset}`;
};
const HITS_RANKING = sql.raw(rankingOrderBy('hits', { id: 'listing_id' }));

/**
 * A search's matches read from the postings: merged (the known words given, mergedHits), or the matches
 * first (`few`, words the postings hold: postingsHits); undefined when the text index reads them.
 */
const fromPostings = (
  groups: string[][],
  filters: { filters: ListFilters; now: Date } | undefined,
  few: boolean,
  known: string[][] | undefined,
  sorted: boolean,
) =>
  known
    ? mergedHits(known, filters, sorted)
    : few && searchesPostings(groups)
      ? postingsHits(groups, filters, sorted)
      : undefined;
const POSTINGS_RANKING = sql.raw(rankingOrderBy('p', { id: 'listing_id' }));

/**
 * The matching entries read first, with their ranking keys, as `hits` (decision 0743), from the text
 * index (words the postings do not hold: searchesPostings).
 */
const hitsOf = (groups: string[][], filters?: { filters: ListFilters; now: Date }) =>
  sql`with hits as materialized (select e.listing_id, e.bumped_at from directory_entries e where ${searchEntries(groups, filters)})`;

/**
 * The matches from the postings (decision 0748: every word three characters or more): a word is in an
 * entry's text exactly when it is part of one of the text's words, so the candidates are the postings of
 * the known words (search_vocabulary) that contain one of the first group's words (the caller puts the
 * rarest group first), one row per listing, `hits`; `where` tests each candidate against the other groups'
 * postings and her entry's facts, by their keys. `sorted`: the candidates come in the ranking's order, so
 * a page stops testing once it is full (decision 0751): the tests, a random read each, are most of the
 * work, and reading and sorting every candidate's posting is not (an index-only read of one index range).
 * `offset 0` keeps the candidates a subquery the tests are not pushed into, and each test a lookup per
 * candidate: as a join the planner may read every posting of a common word, or every entry that passes
 * the filters, to match a few hundred candidates. The filter's services and flags are tested on the
 * postings' own facets as they are read (decision 0752); only its other facts look her entry up.
 */
const postingsHits = (
  groups: string[][],
  filters: { filters: ListFilters; now: Date } | undefined,
  sorted: boolean,
) => {
  const [first, ...rest] = groups;
  const facets = filters && facetsOf(filters.filters);
  const tests = hitTests(
    rest.map((words) => knownWords(words)),
    facets && { filters: facets.rest, now: filters.now },
  );
  const where = and_(tests);
  return {
    from: sql`(select p.listing_id, p.bumped_at from search_postings p where p.word = any(${knownWords(first)})${facetTest(facets)}
      group by p.listing_id, p.bumped_at ${sorted ? sql`order by ${POSTINGS_RANKING} ` : sql``}offset 0) hits`,
    where: where ? sql`where ${where}` : sql``,
  };
};

/**
 * A filter's yes-or-no facts as the postings' facets bits (migration 0028, decision 0752): `any`, one of
 * these services (0: no service asked); `all`, every one of these flags (0: none). `rest`, the facts
 * only her entry holds (age, price, languages, available now).
 */
export function facetsOf(f: ListFilters): { any: number; all: number; rest: ListFilters } {
  const { services, incall, outcall, verified, video, ...rest } = f;
  // JavaScript's bit operators work on 32-bit signed integers, as PostgreSQL's integer does: the 28th
  // service is the sign bit in both.
  const any = (services ?? []).reduce((m, s) => {
    const i = SERVICES.indexOf(s);
    // The schema admits SERVICES only; another word must not become a flag's bit (-1: video's).
    if (i < 0) throw new Error(`Not a service: ${String(s)}`);
    return m | (1 << (4 + i));
  }, 0);
  const all = (incall ? 1 : 0) | (outcall ? 2 : 0) | (verified ? 4 : 0) | (video ? 8 : 0);
  return { any, all, rest };
}

/** The posting `p` passes the facets (facetsOf): ` and ...`, or nothing when they test nothing. */
const facetTest = (facets: { any: number; all: number } | undefined) =>
  sql`${facets?.any ? sql` and (p.facets & ${facets.any}::int) <> 0` : sql``}${
    facets?.all ? sql` and (p.facets & ${facets.all}::int) = ${facets.all}::int` : sql``
  }`;

/**
 * Whether hitsOf reads these groups from the postings: every word is three or more of a-z and 0-9. Those
 * characters are alphanumeric to PostgreSQL's `[:alnum:]` under every locale, so such a word in a text lies
 * inside one of search_words_of's words; a word with other letters (Cyrillic, ½) may not, on a database
 * whose locale splits at them (C), so it keeps the text index.
 */
export const searchesPostings = (groups: string[][]) =>
  groups.every((words) => words.every((w) => /^[a-z0-9]{3,}$/.test(w)));

/** The postings' words that contain one of these, as an array (search_vocabulary, by trigrams). */
const knownWords = (words: string[]) => sql`array(select v.word from search_vocabulary v where ${holdsOneOf(words)})`;

/** The vocabulary's word `v.word` contains one of these. */
const holdsOneOf = (words: string[]) => or(...words.map((w) => sql`v.word like ${likePattern(w)}`));

/**
 * A search whose every group has at most this many known words (SearchEstimate.known) reads its matches
 * from the postings in the ranking's order, one index range per known word merged (decision 0751). Most
 * words are part of one known word, few of more than four (at 50,000 profiles: 691 of 774 of the words
 * 3 to 5,000 profiles use, one; 4 of them over 4); a word that is part of many (three letters, "ann")
 * keeps the reads of searchReadsMatches.
 */
export const SEARCH_MERGED_WORDS = 8;

/** What picks a search's plan: at most how many entries match (estimateSearch), of how many. */
export interface SearchEstimate {
  matches: number;
  /** The home entries (one per listed profile), as the planner's statistics have them. */
  entries: number;
  /** Each group's bound, in the groups' order (matches is the least). */
  groups: number[];
  /**
   * Each group's known words (the postings' words that contain one of its words, search_vocabulary), in
   * the groups' order, when every word is one the postings hold (searchesPostings); at most
   * SEARCH_MERGED_WORDS + 1 each (more: not merged). Cached with the estimate under the directory's
   * version, which every statement on directory_entries turns (the only writer of new words).
   */
  known?: string[][];
}

/** The groups, the one with the fewest matches first (the postings' reads start from the first one). */
export const rarestFirst = (groups: string[][], estimate: SearchEstimate) =>
  rarestOrder(estimate, groups.length).map((i) => groups[i]);

/** The estimate's known words in rarestFirst's order (undefined: the postings do not hold the words). */
export const knownRarestFirst = (estimate: SearchEstimate) =>
  estimate.known && rarestOrder(estimate, estimate.known.length).map((i) => estimate.known![i]);

const rarestOrder = (estimate: SearchEstimate, n: number) =>
  Array.from({ length: n }, (_, i) => i).sort((a, b) => (estimate.groups[a] ?? 0) - (estimate.groups[b] ?? 0));

/**
 * At most how many listed profiles match these word groups, from the word list behind typo tolerance
 * (search_words: how many profiles use each word): for each group, the profiles of every known word that
 * contains one of its words; the rarest group bounds the answer. A bound, not a count: the word list is
 * folded periodically (a profile's new words may be missing for a while, decision 0736). With it, how
 * many home entries there are (the statistics of their rank index), in the same statement.
 */
export async function estimateSearch(db: Db, groups: string[][]): Promise<SearchEstimate> {
  const perGroup = groups.map(
    (words) =>
      sql`(select coalesce(sum(s.profiles), 0) from search_words s where ${or(
        ...words.map((w) => sql`s.word like ${likePattern(w)}`),
      )})`,
  );
  // Up to one more than SEARCH_MERGED_WORDS each: a group with more is not merged, and a three-letter
  // word may be part of thousands.
  const known = searchesPostings(groups)
    ? sql`json_build_array(${sql.join(
        groups.map(
          (words) =>
            sql`(select coalesce(json_agg(k.word order by k.word), '[]') from (select v.word from search_vocabulary v
              where ${holdsOneOf(words)}
              order by v.word limit ${SEARCH_MERGED_WORDS + 1}) k)`,
        ),
        sql`, `,
      )})`
    : sql`null::json`;
  const [row] = await queryRows<{ groups: number[]; entries: number; known: string[][] | null }>(
    db,
    sql`select array[${sql.join(perGroup, sql`, `)}]::int[] as groups,
      (select greatest(c.reltuples, 0)::bigint from pg_class c where c.oid = 'directory_entries_home_rank'::regclass) as entries,
      ${known} as known`,
  );
  const perGroupCount = row.groups.map(Number);
  return {
    matches: Math.min(...perGroupCount),
    entries: Number(row.entries),
    groups: perGroupCount,
    ...(row.known ? { known: row.known } : {}),
  };
}

/**
 * How many profiles searchByWords reaches with these groups, up to `cap` (a search's total is bounded
 * work, docs/decisions/0730, 0735): the entries of searchEntries; `few` reads them as its page does.
 */
export async function countByWords(
  db: Db,
  groups: string[][],
  cap: number,
  filters?: { filters: ListFilters; now: Date },
  few = false,
  known?: string[][],
) {
  // From the postings the candidates come in no order, tested until `cap` pass.
  const hits = fromPostings(groups, filters, few, known, false);
  const [row] = await queryRows<{ n: number }>(
    db,
    hits
      ? sql`select count(*)::int as n from (select 1 from ${hits.from} ${hits.where} limit ${cap}) r`
      : few
        ? sql`${hitsOf(groups, filters)} select count(*)::int as n from (select 1 from hits limit ${cap}) r`
        : sql`select count(*)::int as n from (
      select 1 from directory_entries e where ${searchEntries(groups, filters)} limit ${cap}) r`,
  );
  return Number(row.n);
}

/**
 * The matches from the postings of each group's known words (`known`, in the groups' order, the rarest
 * first: SearchEstimate.known), read in the ranking's order (decision 0751): each known word of the first
 * group is one range of the postings' index, already in that order (each branch's own `order by` keeps
 * it: the planner then merges the ranges, a merge append of index-only scans, instead of sorting them
 * all), a listing whose text holds two of them passed over in every range but the first one's; `where`
 * tests each candidate, as postingsHits does. So a page reads its rows and the candidates the tests drop
 * on the way, not every match: a filtered page of a word 2,672 profiles use at 50,000, 46 postings and
 * 46 tests (0.9 ms) instead of 2,672 of each (20 ms). Unsorted (`sorted` false), for a count, the ranges
 * are read one after the other until the count is reached. Each branch tests the filter's services and
 * flags on the postings' facets (decision 0752), in the index range it reads.
 */
const mergedHits = (known: string[][], filters: { filters: ListFilters; now: Date } | undefined, sorted: boolean) => {
  const [first, ...rest] = known;
  const facets = filters && facetsOf(filters.filters);
  // Each list of words is one parameter: the statement's text then depends on the number of branches and
  // groups alone, not on each group's size (the process names at most 200 texts, decision 0740).
  const tests = hitTests(
    rest.map((words) => sql`${sql.param(words)}::text[]`),
    facets && { filters: facets.rest, now: filters.now },
  );
  const branches = first.map((word, i) => {
    const seen = i
      ? sql` and not exists (select 1 from search_postings q where q.word = any(${sql.param(first.slice(0, i))}::text[])
          and q.bumped_at = p.bumped_at and q.listing_id = p.listing_id offset 0)`
      : sql``;
    const branch = sql`select p.listing_id, p.bumped_at from search_postings p where p.word = ${word}${facetTest(facets)}${seen}`;
    return sorted ? sql`(${branch} order by ${POSTINGS_RANKING})` : branch;
  });
  const where = and_(tests);
  return {
    from: branches.length
      ? sql`(${sql.join(branches, sql` union all `)}) hits`
      : sql`(select null::integer as listing_id, null::timestamptz as bumped_at where false) hits`,
    where: where ? sql`where ${where}` : sql``,
  };
};

/**
 * The tests of a candidate `hits` (postingsHits, mergedHits): a posting of one of each further group's
 * known words (`words`, an array each), and her home entry's facts passing the filters (the callers pass
 * the facts the postings' facets do not hold: facetsOf's `rest`).
 */
function hitTests(words: SQL[], filters: { filters: ListFilters; now: Date } | undefined): SQL[] {
  const tests = words.map(
    (known) => sql`exists (select 1 from search_postings q where q.word = any(${known})
      and q.bumped_at = hits.bumped_at and q.listing_id = hits.listing_id offset 0)`,
  );
  const filter = filters && filterCondition(filters.filters, filters.now);
  if (filter)
    tests.push(sql`exists (select 1 from directory_entries e where e.listing_id = hits.listing_id and e.kind = 'home'
      and ${filter} offset 0)`);
  return tests;
}

export async function hasMatch(db: Db, groups: string[][]) {
  const rows = await queryRows(db, sql`select 1 from directory_entries e where ${searchEntries(groups)} limit 1`);
  return rows.length > 0;
}

/** Typo tolerance: for each query word, the nearest real words of listed profiles (pg_trgm similarity). */
export async function correctTerms(db: Db, terms: string[]): Promise<string[][]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('pg_trgm.similarity_threshold', ${String(SIMILARITY)}, true)`);
    const out: string[][] = [];
    for (const t of terms) {
      const rows = await queryRows<{ word: string }>(
        tx,
        sql`select word from search_words where word % ${t} order by similarity(word, ${t}) desc, profiles desc limit 3`,
      );
      out.push(rows.map((r) => r.word));
    }
    return out;
  });
}

/**
 * The word list behind typo tolerance, rebuilt from every listed profile's text (the seed; migration 0022
 * did it once). Triggers on profiles keep it since (decision 0739): foldSearchWords.
 */
export async function rebuildSearchWords(db: Db) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select search_words_rebuild()`);
  });
}

/** Periodic task: what profiles' text changes did to the word list, added in (0 when nothing changed). */
export async function foldSearchWords(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select search_words_fold() as n`);
  // A word gone from search_words may have gone from the postings: the vocabulary follows (decision 0748).
  if (Number(row.n) > 0) await db.execute(sql`select search_vocabulary_prune()`);
  return Number(row.n);
}
