// The nearby list's walk (issue 21 item 6, docs/decisions/0325): the cities nearest first, each in its
// directory order, a profile at the nearest of its cities only. Two things keep a deep page from holding
// PGlite's one thread (where every query runs in the server's own thread, so a long one holds every other
// request, the health check included):
// - a bounded read: each query reads at most SCAN_ROWS listings of the cities' rank index, whatever the
//   category and filters find (a rare filter walks on in more short queries), with a turn for other
//   requests before each;
// - the cities' ranks kept per version: what a walk read of a city (its shown listings in order, and where
//   the read stopped) is kept under the version the answer is made for (the `g` scope's, which any
//   change to a listed profile, listing or expiry turns: the answer cache's own key, docs/decisions/0730),
//   the category and the filter. The next page, or a visitor a few streets away, starts where it stopped.
import type { Category } from '#shared/constants.ts';
import type { ListFilters } from '#shared/schemas/directory.ts';
import { filterKey } from '#shared/rules/list-filters.ts';
import type { AppContext } from '../../context';
import * as repo from './nearby.repo';

/** Listings of the rank index one query reads at most (all its cities together). */
export const SCAN_ROWS = 64;
/** Listings read at least of the city a walk waits on. */
const MIN_ROWS = 25;
/** Cities one query reads at most. */
const CITIES_PER_QUERY = 40;
/** Versions (with category and filter) whose cities are kept; the oldest goes first. */
const TABLES = 16;

/** What the walks have read of one city under one version, category and filter. */
interface CityRanks {
  /** The shown listings read so far, in the city's order, and their profiles. */
  ids: number[];
  users: number[];
  /** The last listing read (shown or not); null before the first read. */
  cursor: repo.RankCursor | null;
  /** Listings read (shown or not). */
  read: number;
  /** The city has been read to its end. */
  done: boolean;
  /** A read of more under way (another request's): wait for it rather than read the same rows twice. */
  busy: Promise<void> | null;
}

interface Table {
  cities: Map<number, CityRanks>;
  /** Listings read and shown in all: what part of a city the list shows, before the city is read. */
  read: number;
  shown: number;
}
const tables = new WeakMap<AppContext, Map<string, Table>>();

function tableOf(ctx: AppContext, key: string): Table {
  let all = tables.get(ctx);
  if (!all) tables.set(ctx, (all = new Map()));
  let table = all.get(key);
  if (table) {
    all.delete(key); // most recently used last
  } else {
    table = { cities: new Map(), read: 0, shown: 0 };
    if (all.size >= TABLES) all.delete(all.keys().next().value as string);
  }
  all.set(key, table);
  return table;
}

function cityOf(table: Table, cityId: number): CityRanks {
  let c = table.cities.get(cityId);
  if (!c) table.cities.set(cityId, (c = { ids: [], users: [], cursor: null, read: 0, done: false, busy: null }));
  return c;
}

/**
 * The part of a city's listings the list shows (a filter or a category shows some only), from what was
 * read of it, or of every city while little was: how many to read for the rows wanted.
 */
function shownPart(table: Table, city: CityRanks) {
  const [read, shown] = city.read >= MIN_ROWS ? [city.read, city.ids.length] : [table.read, table.shown];
  return (shown + 1) / (read + 1);
}

export interface NearCity {
  city_id: number;
  /** Listings the city holds in the category (the maintained count: an estimate of what is left to read). */
  listings: number;
  km: number;
}

/** The ranks a walk reads: by a version the answer is made for, so nothing kept is older than a write. */
export interface WalkScope {
  version: string;
  category: Category;
  filters?: ListFilters;
  now: Date;
}

/**
 * The first `want` listings of the nearby list over `cities` (nearest first): each profile once, at the
 * first city it is met in, in the cities' order and inside a city in its directory order.
 */
export async function walkNearby(
  ctx: AppContext,
  scope: WalkScope,
  cities: NearCity[],
  want: number,
): Promise<Array<{ listing_id: number; km: number }>> {
  const table = tableOf(
    ctx,
    `${scope.version}|${scope.category}|${scope.filters ? filterKey(scope.filters) : ''}|${scope.now.toISOString().slice(0, 10)}`,
  );
  const seen = new Set<number>();
  const ranked: Array<{ listing_id: number; km: number }> = [];
  let i = 0;
  let pos = 0; // how far this walk has taken the current city's rows
  while (ranked.length < want && i < cities.length) {
    const city = cityOf(table, cities[i].city_id);
    for (; pos < city.ids.length && ranked.length < want; pos++) {
      if (seen.has(city.users[pos])) continue;
      seen.add(city.users[pos]);
      ranked.push({ listing_id: city.ids[pos], km: cities[i].km });
    }
    if (ranked.length >= want) break;
    if (city.done) {
      i++;
      pos = 0;
    } else if (city.busy) await city.busy;
    else await readMore(ctx, table, scope, cities, i, want - ranked.length);
  }
  return ranked;
}

/**
 * One query: the next stretch of city `from` (not done, not busy) and of the cities after it that the
 * `need` rows may reach, SCAN_ROWS listings at most in all. A city whose count says it holds k more rows
 * is asked for k + 1, so a small city is usually read to its end (fewer rows than asked) in one go.
 */
async function readMore(
  ctx: AppContext,
  table: Table,
  scope: WalkScope,
  cities: NearCity[],
  from: number,
  need: number,
) {
  const stretches: repo.CityStretch[] = [];
  const kept: CityRanks[] = [];
  let budget = SCAN_ROWS;
  let left = need;
  for (let k = from; k < cities.length && budget > 0 && left > 0 && stretches.length < CITIES_PER_QUERY; k++) {
    const city = cityOf(table, cities[k].city_id);
    if (city.done) {
      left -= city.ids.length;
      continue;
    }
    if (city.busy) break; // another request reads it: this walk waits for it when it gets there
    // The count is of the category's listings, of which a filter shows some, and the rank index holds
    // others between them: the rows wanted are scaled by the part shown so far. The city the walk waits on
    // is read at least a page's worth at a time.
    const more = Math.max(0, cities[k].listings - city.ids.length);
    const part = shownPart(table, city);
    const limit = Math.min(budget, Math.max(Math.ceil(Math.min(more, left) / part) + 1, k === from ? MIN_ROWS : 0));
    stretches.push({ cityId: cities[k].city_id, after: city.cursor, limit });
    kept.push(city);
    budget -= limit;
    left -= (limit - 1) * part;
  }
  let release!: () => void;
  const busy = new Promise<void>((resolve) => (release = resolve));
  for (const city of kept) city.busy = busy;
  try {
    // A turn for the requests that arrived meanwhile (the health check, a page): on PGlite the query
    // below holds this thread while it runs.
    await new Promise((resolve) => setImmediate(resolve));
    const rows = await repo.readCityStretches(ctx.db, stretches, scope.category, scope.now, scope.filters);
    const read = new Map<number, number>();
    for (const r of rows) {
      const city = table.cities.get(r.city_id)!;
      read.set(r.city_id, (read.get(r.city_id) ?? 0) + 1);
      city.cursor = { bumped_at: r.bumped_at, id: r.listing_id };
      city.read++;
      table.read++;
      if (r.ok) {
        city.ids.push(r.listing_id);
        city.users.push(r.user_id);
        table.shown++;
      }
    }
    stretches.forEach((s, n) => {
      if ((read.get(s.cityId) ?? 0) < s.limit) kept[n].done = true;
    });
  } finally {
    for (const city of kept) city.busy = null;
    release();
  }
}
