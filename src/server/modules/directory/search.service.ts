// The search: a query's words found exactly, or else corrected (typo tolerance), its plan picked by the
// words' rarity (docs/decisions/0736, 0743, 0751), its page and its bounded total (0735). The SQL is
// search.repo.ts's: postings, vocabulary, estimates and corrections live there.
import { PAGE_SIZE, type Language } from '#shared/constants.ts';
import { LIST_MAX_PAGE } from '#shared/schemas/directory.ts';
import type { DirectoryPage, ListFilters } from '#shared/schemas/directory.ts';
import { filterKey, hasFilters, normalizeFilters } from '#shared/rules/list-filters.ts';
import { foldText } from '../profiles/profile-derive';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { perContext } from '../../lib/per-context';
import { TtlCache } from '../../lib/ttl-cache';
import { directoryVersion } from './directory.version';
import * as repo from './search.repo';
import { COUNTED_TOTAL, pageTotal, presentItems } from './list-page.service';

// Every key starts with the directory version (directory.cache.ts, docs/decisions/0700): nothing here is
// ever older than the last write; the expiry only bounds the memory. One set of caches per app context.
const cachesOf = perContext(() => ({
  counts: new TtlCache<number>(60_000),
  flags: new TtlCache<boolean>(60_000),
  estimates: new TtlCache<repo.SearchEstimate>(60_000),
  corrections: new TtlCache<string[][]>(600_000),
}));

/**
 * Periodic task: the word list behind typo tolerance brought up to date with the profiles' text changes
 * written since (decision 0739: triggers keep them; nothing to do when nothing changed).
 */
export const refreshSearchWords = (db: Db) => repo.foldSearchWords(db);

/** The word list rebuilt from every listed profile's text (the seed, after its bulk writes). */
export const rebuildSearchWords = (db: Db) => repo.rebuildSearchWords(db);

/**
 * A search whose words at most this many profiles use reads those profiles first, then sorts them
 * (decision 0736); a commoner one walks the ranking and stops when the page is full, unless the walk
 * would read more (searchReadsMatches).
 */
const SEARCH_FEW_MATCHES = 1000;

/**
 * Whether a search page reads its matches first (decision 0743). Reading them costs about one row per
 * match; the walk of the ranking, one row per entry it passes, and it passes entries/matches of them for
 * each row of the page and the pages before it, more when filters drop some of the matches. So the
 * matches are read first when matches^2 <= rows * entries * k: k = 2 (a walked row costs about twice a
 * read match: each is a heap fetch in rank order against a bitmap read in the table's order), 8 with
 * filters (a filter keeps about a quarter of the matches). At 500,000 profiles, page 1: up to about 4,800
 * matches, 9,600 filtered; at 50,000 about 1,500 and 3,000. Read from the postings (decision 0748: every
 * word three characters or more), a match is an index entry, not a heap block: k = 20 unfiltered (the
 * walk's row ~6 us against ~0.5 us, measured at 50,000), filtered too since the matches are sorted before
 * their facts are read (decision 0751: only as many as the page needs): up to about 15,800 matches at
 * 500,000 and 4,800 at 50,000.
 */
export function searchReadsMatches(
  estimate: repo.SearchEstimate,
  rows: number,
  filtered: boolean,
  postings = false,
): boolean {
  if (estimate.matches <= SEARCH_FEW_MATCHES) return true;
  return estimate.matches ** 2 <= rows * estimate.entries * (postings ? 20 : filtered ? 8 : 2);
}

/** The known words when a search merges them (SEARCH_MERGED_WORDS), else undefined. */
export const mergesPostings = (known: string[][] | undefined) =>
  known?.every((words) => words.length <= repo.SEARCH_MERGED_WORDS) ? known : undefined;

export async function search(
  ctx: AppContext,
  q: string,
  page: number,
  v?: string,
  lang: Language = 'en',
  listFilters?: ListFilters,
): Promise<DirectoryPage> {
  const terms = repo.searchTerms(foldText(q));
  const offset = (page - 1) * PAGE_SIZE;
  if (!terms.length) return { data: [], page, has_more: false, total: 0 };
  v ??= await directoryVersion(ctx);
  // Exact matches first; only a query that matches nothing exactly falls back to typo tolerance:
  // each word is replaced by the nearest real words of the directory ("lodnon" -> "london").
  const key = `${v}|${terms.join(' ')}`;
  const exact = terms.map((t) => [t]);
  const groups = (await cachesOf(ctx).flags.get(key, () => repo.hasMatch(ctx.db, exact)))
    ? exact
    : await cachesOf(ctx).corrections.get(key, () => repo.correctTerms(ctx.db, terms));
  if (!groups.every((g) => g.length)) return { data: [], page, has_more: false, total: 0 };
  // The total counts what paging reaches with the same words, up to COUNTED_TOTAL_PAGES pages ("more than"
  // past them: bounded work, docs/decisions/0730, 0735), so it is the same on every page; counted once per
  // version and query.
  const filters = hasFilters(listFilters) ? { filters: normalizeFilters(listFilters), now: ctx.now() } : undefined;
  const fkey = filters ? `|${filterKey(filters.filters)}|${filters.now.toISOString().slice(0, 10)}` : '';
  // Rare words: the matching profiles first, then their order (decisions 0736, 0743); the estimate is
  // cached like the flags.
  const words = JSON.stringify(groups);
  const estimate = await cachesOf(ctx).estimates.get(`${v}|estimate|${words}`, () =>
    repo.estimateSearch(ctx.db, groups),
  );
  const postings = repo.searchesPostings(groups);
  const few = searchReadsMatches(estimate, offset + PAGE_SIZE + 1, !!filters, postings);
  const ordered = repo.rarestFirst(groups, estimate);
  const known = mergesPostings(repo.knownRarestFirst(estimate));
  const [rows, total] = await Promise.all([
    repo.searchByWords(ctx.db, ordered, PAGE_SIZE + 1, offset, filters, few, known),
    cachesOf(ctx).counts.get(`${v}|search|${words}${fkey}`, () =>
      repo.countByWords(
        ctx.db,
        ordered,
        COUNTED_TOTAL + 1,
        filters,
        searchReadsMatches(estimate, COUNTED_TOTAL + 1, !!filters, postings),
        known,
      ),
    ),
  ]);
  const data = await presentItems(ctx, rows.slice(0, PAGE_SIZE), lang);
  const hasMore = rows.length > PAGE_SIZE && page < LIST_MAX_PAGE;
  return { data, page, has_more: hasMore, ...pageTotal(total, total, offset + data.length) };
}
