// SQL of the nearby list (docs/decisions/0325, 0738, 0753): the cities with listings, the short reads of
// their rank indexes that nearby-ranks.ts walks, and the page's listings by id.
import { and, eq, gt, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Category } from '#shared/constants.ts';
import type { ListFilters } from '#shared/schemas/directory.ts';
import { queryRows, type Db } from '../../db/client';
import { cities, directoryCounts } from '../../db/schema';
import { atOrBelowOnFirstKey, rankedAbove } from '#shared/ranking.ts';
import { rankingOrder } from '../listings/listings.service';
import {
  activeAt,
  and_,
  entryActive,
  entryInCategory,
  filterCondition,
  l,
  p,
  selectListings,
  type ListingRow,
} from './listing-rows.repo';

// ---------------------------------------------------------------- nearby

/**
 * Cities that have listed profiles' listings in a category, and how many (the nearby search walks these,
 * nearest first): the maintained city counts (docs/decisions/0730), a short read of one index instead of
 * an aggregate over every listing. Listings expired but not yet removed still count: the walk then takes
 * in one more city.
 */
export async function citiesWithListings(db: Db, category: Category) {
  return db
    .select({
      city_id: directoryCounts.cityId,
      country_code: directoryCounts.countryCode,
      lat: cities.lat,
      lng: cities.lng,
      listings: directoryCounts.n,
    })
    .from(directoryCounts)
    .innerJoin(cities, eq(cities.id, directoryCounts.cityId))
    .where(and(eq(directoryCounts.category, category), ne(directoryCounts.cityId, 0), gt(directoryCounts.n, 0)));
}

export type CityWithListings = Awaited<ReturnType<typeof citiesWithListings>>[number];

/** Where a walk of a city's rank index stopped: the last listing read, by its ranking keys. */
export interface RankCursor {
  /** Its `bumped_at` as the database's text (microseconds kept: a JS Date would round them off). */
  bumped_at: string;
  id: number;
}

/** One city's next stretch to read: at most `limit` of its listings after `after` (null: from its top). */
export interface CityStretch {
  cityId: number;
  after: RankCursor | null;
  limit: number;
}

/**
 * The next listings of each city in its directory order, at most `limit` per city after its cursor: the
 * city's entries (directory_entries: the listings of listed profiles) read from the covering city rank
 * index, `directory_entries_city_rank` (or the partial one of the list's rarest part: walkedPart), with no
 * profile or listing row read (decision 0738). `ok` says
 * whether the nearby list shows it (of the category, unexpired at `now`, passing the filters on the
 * entry's facts, as the city and country pages test them). The work is bounded by the
 * limits whatever the category or filters find (issue 21 item 6: a walk that stopped only at `perCity`
 * matches read a whole city for a rare filter, in one query that held PGlite's one thread). Rows come in
 * the stretches' order, each city's in its ranking order; a city that gave fewer than its limit is read to
 * its end. Raw SQL: a lateral join over `unnest ... with ordinality` (docs/decisions/0915). "After the
 * cursor" is the ranking rule's own `rankedAbove`; `atOrBelowOnFirstKey` beside it (the rule's first key)
 * lets the index start there instead of at the city's top.
 */
export async function readCityStretches(
  db: Db,
  stretches: CityStretch[],
  category: Category,
  now: Date,
  filters?: ListFilters,
) {
  if (!stretches.length) return [];
  const list = (f: (s: CityStretch) => SQL) =>
    sql.join(
      stretches.map((s) => f(s)),
      sql`, `,
    );
  const walked = walkedPart(category, filters);
  const shown =
    and_([entryActive(now), entryInCategory(category), filterCondition(walked?.rest ?? filters, now)]) ?? sql`true`;
  return queryRows<{ city_id: number; listing_id: number; user_id: number; bumped_at: string; ok: boolean }>(
    db,
    sql`
    select o.city_id, x.id as listing_id, x.profile_id as user_id, x.b as bumped_at, x.ok
    from unnest(
      array[${list((s) => sql`${s.cityId}::int`)}],
      array[${list((s) => sql`${s.after?.bumped_at ?? 'infinity'}::timestamptz`)}],
      array[${list((s) => sql`${s.after?.id ?? 0}::int`)}],
      array[${list((s) => sql`${s.limit}::int`)}]
    ) with ordinality as o(city_id, bumped_at, id, lim, ord)
    cross join lateral (
      select l.id, l.profile_id, l.bumped_at, l.bumped_at::text as b, l.ok
      from (
        select e.listing_id as id, e.profile_id, e.bumped_at, coalesce(${shown}, false) as ok
        from directory_entries e where e.city_id = o.city_id${walked ? sql` and ${walked.where}` : sql``}
      ) l
      where ${sql.raw(atOrBelowOnFirstKey('o', 'l'))} and ${sql.raw(rankedAbove('o', 'l'))}
      order by ${rankingOrder('l')}
      limit o.lim
    ) x
    order by o.ord, ${rankingOrder('x')}`,
  );
}

/**
 * The part of a nearby list's test that one of the partial city indexes holds (decisions 0741, 0747,
 * 0750), or undefined: a stretch then reads that index alone, the entries no such list can show never
 * read (an age filter: the two in three who show no age). One part only, the rarest first: with two, the
 * index of one would be read through the entries the other drops, as many as a city holds, before the
 * stretch's limit is reached (the walk's reads are bounded by the rows they read, issue 21 item 6).
 */
function walkedPart(
  category: Category,
  filters: ListFilters | undefined,
): { where: SQL; rest: ListFilters | undefined } | undefined {
  if (filters?.available) return { where: sql`e.available_until is not null`, rest: filters };
  // Every entry of the video index has one (the index does not hold the column: not tested again).
  if (filters?.video) return { where: sql`e.video`, rest: { ...filters, video: undefined } };
  if (category === 'male' || category === 'trans' || category === 'dom')
    return { where: entryInCategory(category)!, rest: filters };
  if (filters?.age_min !== undefined || filters?.age_max !== undefined)
    return { where: sql`e.shown_birth_date is not null`, rest: filters };
  return undefined;
}

/** Listings by id, in the order given (ids that are no longer public at `now` are left out). */
export async function findListingsByIds(db: Db, listingIds: number[], now: Date): Promise<ListingRow[]> {
  if (!listingIds.length) return [];
  const rows = await selectListings(db).where(and(inArray(l.id, listingIds), activeAt(now), eq(p.listed, true)));
  const byId = new Map(rows.map((r) => [r.listing_id, r]));
  return listingIds.flatMap((id) => byId.get(id) ?? []);
}
