// SQL of the country and city pages (docs/decisions/0734: they walk directory_entries), their coming
// tours, their counts (the maintained ones, docs/decisions/0730) and the countries and cities they name.
// What every list shares (columns, filters, the page statement) is listing-rows.repo.ts.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Category } from '#shared/constants.ts';
import { genericPlansOf, queryRows, type Db } from '../../db/client';
import { cities, countries, listings } from '../../db/schema';
import { rankingOrder } from '../listings/listings.service';
import {
  activeAt,
  and_,
  categoryCondition,
  entryActive,
  entryInCategory,
  ENTRY_RANKING,
  filterCondition,
  l,
  p,
  pageOf,
  profilePasses,
  selectListings,
  type ListingScope,
} from './listing-rows.repo';

const s = alias(listings, 's');

/**
 * A country page's rows (a UNION ALL of entries' `id` (the listing) and `bumped_at`, the ranking keys):
 * each listed profile of the category once, by its best-ranked unexpired listing in the country
 * (RANKING_LISTS.country; docs/decisions/0723). That is the entry flagged `is_primary` (the listing's
 * `country_primary`), read in ranking order from directory_entries_country_rank (its first `first` rows
 * when given: a page reads only the top of the index), unless the flagged listing has expired by the
 * app's clock and the periodic task (removeExpiredListings) has not yet moved the flag. For those few
 * profiles (found through listings_country_expires: an expired listing lives only until the task's next
 * run) their best-ranked unexpired listing in the country stands in, with the flagged entry's facts (one
 * profile's facts are the same on each of her entries). The category and filters are the entry's own
 * columns (decision 0734): no profile is read. The first branch has its own order and limit because
 * PostgreSQL does not take `country_code` as fixed inside a UNION ALL branch and would otherwise sort the
 * whole country. The second branch starts from the expired listings, and tests each one's entry by its
 * key (`offset 0`; the test in its select list, so only the primary key can find the entry): as a join, a
 * generic plan (0745) with a rare category and filters walked that category's whole city index (0747)
 * instead: 162 ms for France's trans, verified, 20-30 page at 500,000 profiles, 1 ms this way. Raw SQL (docs/decisions/0915): a union all over lateral joins.
 */
function countryRows(scope: ListingScope, first?: number) {
  const { countryCode, now } = scope;
  const entryOk = and_([entryInCategory(scope.category), filterCondition(scope.filters, now)]);
  const ok = (x: SQL) => (entryOk ? sql`${x} and ${entryOk}` : x);
  const head = first === undefined ? sql`` : sql` order by ${ENTRY_RANKING} limit ${first}`;
  return sql`(
    select e.listing_id as id, e.bumped_at from directory_entries e
    where ${ok(sql`e.country_code = ${countryCode} and e.is_primary and ${entryActive(now)}`)}${head}
  ) union all (
    select s.id, s.bumped_at
    from listings x
    cross join lateral (
      select ${entryOk ?? sql`true`} as ok from directory_entries e where e.listing_id = x.id offset 0
    ) e
    cross join lateral (
      select * from listings s
      where s.profile_id = x.profile_id and s.country_code = x.country_code and ${activeAt(now, s)}
      order by ${rankingOrder('s')} limit 1
    ) s
    where x.expires_at <= ${now.toISOString()}::timestamptz and x.country_primary and x.country_code = ${countryCode}
      and e.ok
  )`;
}

/** A city page's entries `e` (decision 0734: the list's facts, no profile read). */
const cityRows = (scope: ListingScope, cityId: number) =>
  and_([
    sql`e.city_id = ${cityId} and e.country_code = ${scope.countryCode}`,
    entryActive(scope.now),
    entryInCategory(scope.category),
    filterCondition(scope.filters, scope.now),
  ])!;

/** A city page's listings (`l`, joined to its profile `p`): the rows of cityRows (tours ahead). */
const cityWhere = (scope: ListingScope, cityId: number) =>
  and(
    eq(l.countryCode, scope.countryCode),
    eq(l.cityId, cityId),
    activeAt(scope.now),
    eq(p.listed, true),
    categoryCondition(scope.category),
    profilePasses(scope.filters, scope.now),
  );

export async function findListings(db: Db, scope: ListingScope, limit: number, offset: number) {
  // The page's rows are picked (ordered, cut) from directory_entries before the joins: a page joins its
  // own rows only. A CTE referenced once is inlined by PostgreSQL: a subquery `l` the builder's joins can
  // name (its columns are the ranking keys, `id` and `bumped_at`).
  const rows = scope.cityId
    ? sql`select e.listing_id as id, e.bumped_at from directory_entries e where ${cityRows(scope, scope.cityId)}
      order by ${ENTRY_RANKING} limit ${limit} offset ${offset}`
    : sql`select * from (${countryRows(scope, offset + limit)}) u
      order by ${rankingOrder('u')} limit ${limit} offset ${offset}`;
  // Planned once per connection, generically (decision 0745): the plan of every list page shape is a walk
  // of its index whatever the country, city or page (generic-plans.test).
  return pageOf(genericPlansOf(db), rows);
}

/**
 * A city's coming tours (issue 27 item 4, docs/decisions/0323): its listed tour listings whose tour starts
 * after `now` and before `until`, soonest first, then by the ranking rule (listings_city_tour_starts).
 */
export async function findToursAhead(
  db: Db,
  scope: Omit<ListingScope, 'filters'> & { cityId: number },
  until: Date,
  limit: number,
) {
  return selectListings(db)
    .where(
      and(
        cityWhere(scope, scope.cityId),
        sql`${l.tourStartsAt} > ${scope.now.toISOString()}::timestamptz`,
        sql`${l.tourStartsAt} < ${until.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(l.tourStartsAt), rankingOrder('l'))
    .limit(limit);
}

// ---------------------------------------------------------------- counts (docs/decisions/0730)
// directory_counts holds, per country page (city_id 0) and city page and category, how many rows that
// page lists, kept by the database's triggers in the writing transaction (migration 0010). It counts
// listings that expired by the app's clock but are still there (the periodic task removes them): those
// few rows are found through the expiry indexes and subtracted here. A country page shows a profile whose
// flagged listing expired through a stand-in (0723), so only those without one are subtracted there.
// Raw SQL (0915): `any(cats)`, `unnest` of each entry's categories and the stand-in's `not exists`.

/** Expired rows (at `now`) still counted for country `code` (per category; `city`: of that city only). */
const goneRows = (code: string, now: Date, city?: number) => {
  const at = sql`${now.toISOString()}::timestamptz`;
  if (city !== undefined)
    return sql`select c as category, x.city_id, count(*)::int as k
      from listings x join directory_entries e on e.listing_id = x.id, unnest(e.cats) c
      where x.city_id = ${city} and x.expires_at <= ${at} group by 1, 2`;
  return sql`select c as category, x.city_id, count(*)::int as k
    from listings x join directory_entries e on e.listing_id = x.id, unnest(e.cats) c
    where x.country_code = ${code} and x.expires_at <= ${at} group by 1, 2`;
};

/** Expired flagged rows of country pages with no stand-in (per country and category). */
const goneFromCountries = (now: Date, code?: string) => {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql`select x.country_code, c as category, count(*)::int as k
    from listings x join directory_entries e on e.listing_id = x.id, unnest(e.cats) c
    where ${code === undefined ? sql`true` : sql`x.country_code = ${code}`} and x.expires_at <= ${at} and e.is_primary
      and not exists (select 1 from listings s where s.profile_id = x.profile_id and s.country_code = x.country_code
        and (s.expires_at is null or s.expires_at > ${at}))
    group by 1, 2`;
};

/** How many rows findListings pages through for this scope (every page): the maintained count. */
export async function countListings(db: Db, scope: ListingScope): Promise<number> {
  const { countryCode: code, category, now } = scope;
  const gone = scope.cityId
    ? sql`select coalesce(sum(k), 0) from (${goneRows(code, now, scope.cityId)}) g where g.category = ${category}`
    : sql`select coalesce(sum(k), 0) from (${goneFromCountries(now, code)}) g where g.category = ${category}`;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select (coalesce((select n from directory_counts where country_code = ${code}
        and city_id = ${scope.cityId ?? 0} and category = ${category}), 0) - (${gone}))::int as n`,
  );
  return Number(row.n);
}

/**
 * How many rows a filtered list pages through, up to `cap` (what paging can reach, LIST_MAX_PAGE pages:
 * bounded work like a search's total, docs/decisions/0730): the same rows findListings reads, from
 * directory_entries alone (decision 0734). A filtered list has no maintained count.
 */
export async function countFilteredListings(db: Db, scope: ListingScope, cap: number): Promise<number> {
  const rows = scope.cityId
    ? sql`select 1 from directory_entries e where ${cityRows(scope, scope.cityId)} limit ${cap}`
    : sql`select 1 from (${countryRows(scope, cap)}) u limit ${cap}`;
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${rows}) r`);
  return Number(row.n);
}

export async function findCountryBySlug(db: Db, slug: string) {
  const [row] = await db
    .select({ code: countries.code, slug: countries.slug, name: countries.name })
    .from(countries)
    .where(eq(countries.slug, slug));
  return row ?? null;
}

export async function findCityBySlug(db: Db, countryCode: string, slug: string) {
  const [row] = await db
    .select({ id: cities.id, slug: cities.slug, name: cities.name })
    .from(cities)
    .where(and(eq(cities.countryCode, countryCode), eq(cities.slug, slug)));
  return row ?? null;
}

/** The country's cities with listings of the category, busiest first: each with its city page's total. */
export async function placesWithCounts(db: Db, countryCode: string, category: Category, now: Date) {
  return queryRows<{ slug: string; name: string; count: number }>(
    db,
    sql`select ci.slug, ci.name, (d.n - coalesce(g.k, 0))::int as count
    from directory_counts d join cities ci on ci.id = d.city_id
    left join (${goneRows(countryCode, now)}) g on g.city_id = d.city_id and g.category = d.category
    where d.country_code = ${countryCode} and d.city_id <> 0 and d.category = ${category} and d.n - coalesce(g.k, 0) > 0
    order by 3 desc, ci.name limit 200`,
  );
}

/** Each category's total of the country page (or of the city page, `cityId`). */
export async function categoryCounts(db: Db, countryCode: string, cityId: number | undefined, now: Date) {
  const gone =
    cityId === undefined
      ? sql`select category, k from (${goneFromCountries(now, countryCode)}) x`
      : sql`select category, k from (${goneRows(countryCode, now, cityId)}) x`;
  const rows = await queryRows<{ category: Category; n: number }>(
    db,
    sql`select d.category, (d.n - coalesce(g.k, 0))::int as n
    from directory_counts d left join (${gone}) g on g.category = d.category
    where d.country_code = ${countryCode} and d.city_id = ${cityId ?? 0}`,
  );
  const counts: Record<Category, number> = { escorts: 0, female: 0, male: 0, trans: 0, dom: 0 };
  for (const r of rows) if (r.category in counts) counts[r.category] = Number(r.n);
  return counts;
}

/** Countries with at least one listed profile of the category, and how many (what its country page shows). */
export async function countriesWithCounts(db: Db, category: Category, now: Date) {
  return queryRows<{ code: string; slug: string; name: string; count: number }>(
    db,
    sql`select co.code, co.slug, co.name, (d.n - coalesce(g.k, 0))::int as count
    from directory_counts d join countries co on co.code = d.country_code
    left join (${goneFromCountries(now)}) g on g.country_code = d.country_code and g.category = d.category
    where d.city_id = 0 and d.category = ${category} and d.n - coalesce(g.k, 0) > 0
    order by co.name`,
  );
}
