// SQL of the public directory. A listing is public when its profile is `listed` (complete, visible,
// not flagged, account active) and it has not expired by the app's clock (`now`, the caller's ctx.now():
// tests move it). Order: the ranking rule (#shared/ranking.ts). Queries use Drizzle's builder over the
// tables aliased as the ranking clause names them (l, p, c, m); raw SQL is kept where the builder has no
// word for it (docs/decisions/0915).
import { and, asc, eq, gt, inArray, isNull, like, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias, PgDialect, type PgColumn, type SelectedFields } from 'drizzle-orm/pg-core';
import { CATEGORIES, SERVICES, type Category } from '#shared/constants.ts';
import type { ListFilters } from '#shared/schemas/directory.ts';
import { genericPlansOf, queryRows, statementName, type Db, type Tx } from '../../db/client';
import { accounts, cities, countries, directoryCounts, listings, media, profiles } from '../../db/schema';
import { atOrBelowOnFirstKey, rankedAbove, rankingOrderBy } from '#shared/ranking.ts';
import { rankingOrder } from '../listings/listings.service';

/** The directory's tables under the aliases its raw clauses (ranking order, nearby) use. */
export const l = alias(listings, 'l');
export const p = alias(profiles, 'p');
export const c = alias(cities, 'c');
export const m = alias(media, 'm');

/** The avatar's columns the presenters need (media row left-joined as `m`). */
export const avatarColumns = {
  avatar_key: m.storageKey,
  avatar_variants: m.variants,
  avatar_width: m.width,
  avatar_height: m.height,
  avatar_placeholder: m.placeholder,
};

/** What a directory item shows of its profile (profile `p`, avatar `m`). */
export const itemProfileColumns = {
  user_id: p.userId,
  screen_name: p.screenName,
  heading: p.heading,
  verification_status: p.verificationStatus,
  place: p.place,
  available_until: p.availableUntil,
  ...avatarColumns,
};

/** One directory item: a listing `l` of profile `p` in city `c`, avatar `m` (every list of listings). */
export const listingColumns = {
  listing_id: l.id,
  kind: l.kind,
  tour_from: l.tourFrom,
  tour_until: l.tourUntil,
  tour_starts_at: l.tourStartsAt,
  city: c.name,
  ...itemProfileColumns,
};

/** listings `l` with their profile `p`, city `c` and the profile's avatar `m`: the rows of listingColumns. */
export function selectListings<T extends SelectedFields = Record<never, never>>(db: Db | Tx, extra?: T) {
  return db
    .select({ ...listingColumns, ...(extra ?? ({} as T)) })
    .from(l)
    .innerJoin(p, eq(p.userId, l.profileId))
    .innerJoin(c, eq(c.id, l.cityId))
    .leftJoin(m, eq(m.id, p.avatarMediaId));
}

/** A row of listingColumns; a list of profiles rather than listings (the feed) may not know the city. */
export type ListingRow = Omit<Awaited<ReturnType<typeof findListings>>[number], 'city'> & { city: string | null };

export function categoryCondition(category: Category): SQL | undefined {
  switch (category) {
    case 'female':
    case 'male':
    case 'trans':
      return eq(p.gender, category);
    case 'dom':
      return eq(p.dominatrix, true);
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------- filters (docs/decisions/0324, 0734)
// A filter only leaves rows out: it is a condition beside the list's own, never a key of the order. It
// tests facts of the profile: the country and city pages read them from directory_entries (alias `e`,
// the narrow table they walk: the view directory_facts says how each is made), search and nearby from
// the profile row `p` they read anyway (search finds it by its text, nearby by its city). The two
// spellings of each fact are side by side below; filters.test finds the same people through both.
// Raw SQL: the rates are jsonb, the lists of services and languages arrays (docs/decisions/0915).

const textArray = (values: readonly string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/** How one row spells the facts a filter tests. */
interface FilterFacts {
  birth: SQL;
  currency: SQL;
  /** The price a price filter reads: the in-call 60-minute rate, or the out-call one when she only visits. */
  price: SQL;
  services: SQL;
  languages: SQL;
  verified: SQL;
  /** An approved video (a pending one is not public). */
  video: SQL;
  /** Some in-call (out-call) rate is a number. */
  incall: SQL;
  outcall: SQL;
  availableUntil: SQL;
}

/** The entry `e` (directory_entries). */
const ENTRY_FACTS: FilterFacts = {
  birth: sql.raw('e.shown_birth_date'),
  currency: sql.raw('e.currency'),
  price: sql.raw('e.price'),
  services: sql.raw('e.services'),
  languages: sql.raw('e.languages'),
  verified: sql.raw('e.verified'),
  video: sql.raw('e.video'),
  incall: sql.raw('e.incall'),
  outcall: sql.raw('e.outcall'),
  availableUntil: sql.raw('e.available_until'),
};

/** The profile `p` (as directory_facts computes each, migration 0020). */
const PROFILE_FACTS: FilterFacts = {
  birth: sql.raw('p.shown_birth_date'),
  currency: sql.raw('p.currency'),
  price: sql.raw(`(case when jsonb_path_exists(p.rates, '$.incall.* ? (@.type() == "number")')
  then case when jsonb_typeof(p.rates #> '{incall,60min}') = 'number' then (p.rates #>> '{incall,60min}')::numeric end
  else case when jsonb_typeof(p.rates #> '{outcall,60min}') = 'number' then (p.rates #>> '{outcall,60min}')::numeric end
  end)`),
  services: sql.raw('p.services'),
  languages: sql.raw('p.languages'),
  verified: sql.raw(`p.verification_status = 'verified'`),
  video: sql.raw(
    `exists (select 1 from media fv where fv.user_id = p.user_id and fv.type = 'video' and fv.status = 'approved')`,
  ),
  incall: sql.raw(`jsonb_path_exists(p.rates, '$.incall.* ? (@.type() == "number")')`),
  outcall: sql.raw(`jsonb_path_exists(p.rates, '$.outcall.* ? (@.type() == "number")')`),
  availableUntil: sql.raw('p.available_until'),
};

/**
 * The row passes the filter at `now` (the app's clock: "available now" and ages on its UTC day), or
 * undefined when the filter narrows nothing. `on`: the entry `e` (default) or the profile `p`.
 */
export function filterCondition(f: ListFilters | undefined, now: Date, on: FilterFacts = ENTRY_FACTS): SQL | undefined {
  if (!f) return undefined;
  const parts: SQL[] = [];
  const day = now.toISOString().slice(0, 10);
  // An age range `a..b` on day D: born on or before D - a years, and after D - (b+1) years (ageOn's rule:
  // a birthday counts from its day). Those who do not show their age have no date: never found.
  if (f.age_min !== undefined || f.age_max !== undefined) parts.push(sql`${on.birth} is not null`);
  if (f.age_min !== undefined)
    parts.push(sql`${on.birth} <= (${day}::date - make_interval(years => ${f.age_min}::int))::date`);
  if (f.age_max !== undefined)
    parts.push(sql`${on.birth} > (${day}::date - make_interval(years => ${f.age_max + 1}::int))::date`);
  if (f.price_min !== undefined || f.price_max !== undefined) {
    parts.push(sql`${on.currency} = ${f.currency ?? ''}`);
    if (f.price_min !== undefined) parts.push(sql`${on.price} >= ${f.price_min}::numeric`);
    if (f.price_max !== undefined) parts.push(sql`${on.price} <= ${f.price_max}::numeric`);
    if (f.price_min === undefined) parts.push(sql`${on.price} is not null`);
  }
  if (f.services?.length) parts.push(sql`${on.services} && ${textArray(f.services)}`);
  if (f.languages?.length) parts.push(sql`${on.languages} && ${textArray(f.languages)}`);
  if (f.verified) parts.push(on.verified);
  if (f.video) parts.push(on.video);
  if (f.incall) parts.push(on.incall);
  if (f.outcall) parts.push(on.outcall);
  if (f.available) parts.push(sql`${on.availableUntil} > ${now.toISOString()}::timestamptz`);
  return parts.length ? sql.join(parts, sql` and `) : undefined;
}

/** The profile `p` passes the filter (search and nearby, which read her row anyway). */
const profilePasses = (f: ListFilters | undefined, now: Date) => filterCondition(f, now, PROFILE_FACTS);

/**
 * The entry `e` is in the category's lists (every entry is in 'escorts'). The category is a literal of
 * the statement's text (one of CATEGORIES, never the caller's text): the rare ones' lists then read
 * their own partial indexes, whose predicate it implies (decision 0747, migration 0025).
 */
function entryInCategory(category: Category): SQL | undefined {
  if (category === 'escorts') return undefined;
  if (!CATEGORIES.includes(category)) throw new Error(`Not a category: ${String(category)}`);
  return sql.raw(`'${category}'::text = any(e.cats)`);
}

/** The ranking rule's ORDER BY over the entries `e` (the listing's id is their `listing_id`). */
const ENTRY_RANKING = sql.raw(rankingOrderBy('e', { id: 'listing_id' }));

/** The entry `e` has not expired at `now`. */
const entryActive = (now: Date) => sql`(e.expires_at is null or e.expires_at > ${now.toISOString()}::timestamptz)`;

/** Listing `l` (or `t`) has not expired at `now` (the app's clock). */
export const activeAt = (now: Date, t: { expiresAt: PgColumn } = l) => or(isNull(t.expiresAt), gt(t.expiresAt, now));

export interface ListingScope {
  countryCode: string;
  cityId?: number;
  category: Category;
  /** The app's clock: listings that expired before it are not shown. */
  now: Date;
  /** What narrows the list (none: every listing of the scope). */
  filters?: ListFilters;
}

const s = alias(listings, 's');

/** The parts given, joined by `and` (undefined: none). */
function and_(parts: (SQL | undefined)[]): SQL | undefined {
  const xs = parts.filter((x): x is SQL => x !== undefined);
  return xs.length ? sql.join(xs, sql` and `) : undefined;
}

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
 * The listing rows (listingColumns) of a page whose listings `rows` picked (columns `id` and `bumped_at`,
 * ordered and cut): the joins read those rows only, in the ranking's order.
 */
function pageQuery(db: Db, rows: SQL) {
  const page = db.$with('k', { id: l.id }).as(rows);
  return db
    .with(page)
    .select(listingColumns)
    .from(page)
    .innerJoin(l, eq(l.id, sql`k.id`))
    .innerJoin(p, eq(p.userId, l.profileId))
    .innerJoin(c, eq(c.id, l.cityId))
    .leftJoin(m, eq(m.id, p.avatarMediaId))
    .orderBy(rankingOrder('l'));
}

type PagePrepared = ReturnType<ReturnType<typeof pageQuery>['prepare']>;

/**
 * Each page shape's statement, built once per database (decision 0746): its rows' parameters are
 * placeholders, filled in at each run. Building the statement through the select builder was most of a
 * page's time in node (the profile of 400 uncached pages: 1.1 ms of drizzle per page) and of its garbage.
 */
const pageShapes = new WeakMap<Db, Map<string, PagePrepared>>();

/**
 * A page of listingColumns (pageQuery) as a named statement: PostgreSQL keeps it per connection
 * (docs/decisions/0740). The statement around `rows` is pageQuery's, the same for every page, so the text
 * of `rows` names it and keys its prepared form.
 */
function pageOf(db: Db, rows: SQL) {
  const q = pageDialect.sqlToQuery(rows);
  const name = statementName(`page:${q.sql}`);
  if (!name) return pageQuery(db, rows).execute();
  let shapes = pageShapes.get(db);
  if (!shapes) pageShapes.set(db, (shapes = new Map()));
  let prepared = shapes.get(name);
  if (!prepared) {
    prepared = preparePage(db, q, name);
    if (!prepared) return pageQuery(db, rows).prepare(name).execute();
    shapes.set(name, prepared);
  }
  const values: Record<string, unknown> = {};
  for (let i = 0; i < q.params.length; i++) values[`p${i}`] = q.params[i];
  return prepared.execute(values);
}

/**
 * The page's statement with the rows' parameters `$1`..`$n` as placeholders `p0`..`p(n-1)`, or undefined
 * when the rows' text does not give back the same text that way (a `$` and digits inside a literal).
 */
function preparePage(db: Db, q: { sql: string; params: unknown[] }, name: string): PagePrepared | undefined {
  const parts = q.sql.split(/\$(\d+)/);
  const template = sql.join(parts.map((part, i) => (i % 2 ? sql.placeholder(`p${Number(part) - 1}`) : sql.raw(part))));
  const again = pageDialect.sqlToQuery(template);
  if (again.sql !== q.sql || again.params.length !== q.params.length) return undefined;
  return pageQuery(db, template).prepare(name);
}
const pageDialect = new PgDialect();

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

/** The profile query, prepared once per database and kind of key (built once, planned once per connection). */
const profileQueries = new WeakMap<Db, Record<'id' | 'name', ReturnType<typeof prepareProfile>>>();

/** A profile by id or by screen name (any case), unless its account is deleted; listed or not. */
export async function findProfile(db: Db, by: { id: number } | { name: string }) {
  let q = profileQueries.get(db);
  if (!q) {
    q = { id: prepareProfile(db, 'id'), name: prepareProfile(db, 'name') };
    profileQueries.set(db, q);
  }
  const [row] = 'id' in by ? await q.id.execute({ key: by.id }) : await q.name.execute({ key: by.name });
  return row ?? null;
}

function prepareProfile(db: Db, by: 'id' | 'name') {
  const co = countries;
  const key = sql.placeholder('key');
  return db
    .select({
      user_id: p.userId,
      screen_name: p.screenName,
      heading: p.heading,
      about: p.about,
      gender: p.gender,
      sexuality: p.sexuality,
      services: p.services,
      personality: p.personality,
      languages: p.languages,
      currency: p.currency,
      phone: p.phone,
      landmark: p.landmark,
      place: p.place,
      ad_status: p.adStatus,
      comments_enabled: p.commentsEnabled,
      dominatrix: p.dominatrix,
      links: p.links,
      availability: p.availability,
      rates: p.rates,
      listed: p.listed,
      verification_status: p.verificationStatus,
      verified_at: p.verifiedAt,
      available_until: p.availableUntil,
      shown_birth_date: p.shownBirthDate,
      views: p.views,
      last_seen_at: accounts.lastSeenAt,
      city_id: c.id,
      city_name: c.name,
      city_slug: c.slug,
      country_name: co.name,
      country_slug: co.slug,
      ...avatarColumns,
    })
    .from(p)
    .innerJoin(accounts, eq(accounts.id, p.userId))
    .leftJoin(c, eq(c.id, p.cityId))
    .leftJoin(co, eq(co.code, c.countryCode))
    .leftJoin(m, eq(m.id, p.avatarMediaId))
    .where(
      and(
        by === 'id' ? eq(p.userId, key) : sql`lower(${p.screenName}) = lower(${key})`,
        ne(accounts.status, 'deleted'),
      ),
    )
    .limit(1)
    .prepare(`directory_profile_by_${by}`);
}

export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;

/**
 * What a cached profile answer takes fresh on every read (docs/decisions/0700). Raw SQL on purpose: it
 * runs on every profile request, and the builder's select cost ~0.5 ms more per call (0915).
 */
export async function findProfileLive(db: Db, userId: number) {
  const [row] = await queryRows<{ views: number; last_seen_at: Date | string | null }>(
    db,
    sql`select p.views, a.last_seen_at from profiles p join accounts a on a.id = p.user_id where p.user_id = ${userId}`,
  );
  return row ?? null;
}

export async function findGallery(db: Db, userId: number) {
  return db
    .select({
      id: media.id,
      type: media.type,
      storage_key: media.storageKey,
      variants: media.variants,
      width: media.width,
      height: media.height,
      placeholder: media.placeholder,
    })
    .from(media)
    .where(and(eq(media.userId, userId), eq(media.status, 'approved'), inArray(media.type, ['gallery', 'video'])))
    .orderBy(media.type, media.position, media.id);
}

export type GalleryRow = Awaited<ReturnType<typeof findGallery>>[number];

export async function findTours(db: Db, userId: number, now: Date) {
  return db
    .select({
      city: c.name,
      from: l.tourFrom,
      until: l.tourUntil,
      // Still to come (issue 27 item 4): the profile marks it apart from a running one.
      coming: sql<boolean>`coalesce(${l.tourStartsAt} > ${now.toISOString()}::timestamptz, false)`,
    })
    .from(l)
    .innerJoin(c, eq(c.id, l.cityId))
    .where(and(eq(l.profileId, userId), eq(l.kind, 'additional'), activeAt(now)))
    .orderBy(asc(l.tourFrom), l.id);
}

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

// ---------------------------------------------------------------- stats and feedback

export type StatColumn = 'impressions' | 'views' | 'phone_reveals';

/**
 * Adds to today's counter of each profile (only profiles that exist and are listed count). Raw SQL on
 * purpose: every impression flush and counted view runs it, and Drizzle's insert-select (every column
 * of the table) measured 1.5 ms slower per call (0915).
 */
export async function bumpDailyStat(db: Db, column: StatColumn, profileIds: number[], day: string) {
  if (!profileIds.length) return 0;
  const col = sql.identifier(column);
  const ids = sql.join(
    profileIds.map((id) => sql`${id}::int`),
    sql`, `,
  );
  const rows = await queryRows<{ profile_id: number }>(
    db,
    sql`
    insert into profile_stats_daily (profile_id, day, ${col})
    select p.user_id, ${day}::date, 1 from profiles p where p.user_id in (${ids}) and p.listed
    on conflict (profile_id, day) do update set ${col} = profile_stats_daily.${col} + 1
    returning profile_id`,
  );
  return rows.length;
}

/** Whether a phone reveal names a profile that exists and is listed (a repeat is answered, not counted). */
export async function isListedProfile(db: Db, profileId: number): Promise<boolean> {
  const rows = await db
    .select({ one: sql`1` })
    .from(profiles)
    .where(and(eq(profiles.userId, profileId), eq(profiles.listed, true)));
  return rows.length > 0;
}

export async function incrementProfileViews(db: Db, profileId: number) {
  await db
    .update(profiles)
    .set({ views: sql`${profiles.views} + 1` })
    .where(eq(profiles.userId, profileId));
}

/**
 * Raw SQL (docs/decisions/0915): the row goes in only when the named profile exists, in one statement
 * (a foreign-key error would abort the caller's transaction, and Drizzle's insert-select wants every
 * column of the table).
 */
export async function insertFeedback(
  db: Db | Tx,
  f: {
    profileId: number | null;
    reason: string;
    message: string | null;
    contact: string | null;
    priority: number;
    reporterHash: string;
    createdAt: Date;
  },
) {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`
    insert into feedback (profile_id, reason, message, contact, priority, reporter_hash, created_at)
    select ${f.profileId}::int, ${f.reason}, ${f.message}, ${f.contact}, ${f.priority}, ${f.reporterHash}, ${f.createdAt.toISOString()}::timestamptz
    where ${f.profileId}::int is null or exists (select 1 from profiles where user_id = ${f.profileId}::int)
    returning id`,
  );
  return row?.id ?? null;
}
