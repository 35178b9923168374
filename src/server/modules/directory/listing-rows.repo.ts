// The SQL every list of the public directory shares (the country and city pages, search, nearby, the
// feed): the tables under the aliases the ranking clause names (l, p, c, m), what an item shows, the
// visitor's filters on an entry or a profile, and the named statement a page of listings runs. A listing
// is public when its profile is `listed` (complete, visible, not flagged, account active) and it has not
// expired by the app's clock (`now`, the caller's ctx.now(): tests move it). Order: the ranking rule
// (#shared/ranking.ts). Queries use Drizzle's builder; raw SQL is kept where the builder has no word for
// it (docs/decisions/0915). Each room of the directory has its own repository beside this one
// (docs/decisions/0760): lists.repo.ts, search.repo.ts, nearby.repo.ts, profile-read.repo.ts, feed.repo.ts.
import { eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias, PgDialect, type PgColumn, type SelectedFields } from 'drizzle-orm/pg-core';
import { CATEGORIES, type Category } from '#shared/constants.ts';
import type { ListFilters } from '#shared/schemas/directory.ts';
import { statementName, type Db, type Tx } from '../../db/client';
import { cities, listings, media, profiles } from '../../db/schema';
import { rankingOrderBy } from '#shared/ranking.ts';
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
export type ListingRow = Omit<Awaited<ReturnType<typeof pageOf>>[number], 'city'> & { city: string | null };

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
export const profilePasses = (f: ListFilters | undefined, now: Date) => filterCondition(f, now, PROFILE_FACTS);

/**
 * The entry `e` is in the category's lists (every entry is in 'escorts'). The category is a literal of
 * the statement's text (one of CATEGORIES, never the caller's text): the rare ones' lists then read
 * their own partial indexes, whose predicate it implies (decision 0747, migration 0025).
 */
export function entryInCategory(category: Category): SQL | undefined {
  if (category === 'escorts') return undefined;
  if (!CATEGORIES.includes(category)) throw new Error(`Not a category: ${String(category)}`);
  return sql.raw(`'${category}'::text = any(e.cats)`);
}

/** The ranking rule's ORDER BY over the entries `e` (the listing's id is their `listing_id`). */
export const ENTRY_RANKING = sql.raw(rankingOrderBy('e', { id: 'listing_id' }));

/** The entry `e` has not expired at `now`. */
export const entryActive = (now: Date) =>
  sql`(e.expires_at is null or e.expires_at > ${now.toISOString()}::timestamptz)`;

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

/** The parts given, joined by `and` (undefined: none). */
export function and_(parts: (SQL | undefined)[]): SQL | undefined {
  const xs = parts.filter((x): x is SQL => x !== undefined);
  return xs.length ? sql.join(xs, sql` and `) : undefined;
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
export function pageOf(db: Db, rows: SQL) {
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
