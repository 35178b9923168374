// SQL of the public directory. A listing is public when its profile is `listed` (complete, visible,
// not flagged, account active) and it has not expired. Order: the ranking rule (#shared/ranking.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { Category } from '#shared/constants.ts';
import { queryRows, type Db, type Tx } from '../../db/client';
import { rankingOrder } from '../listings/listings.service';

export interface ListingRow {
  listing_id: number;
  user_id: number;
  screen_name: string;
  heading: string | null;
  verification_status: string;
  kind: 'home' | 'additional';
  tour_from: string | null;
  tour_until: string | null;
  city: string;
  place: string | null;
  avatar_key: string | null;
  avatar_variants: Record<string, string> | null;
  avatar_width: number | null;
  avatar_height: number | null;
  avatar_placeholder: string | null;
}

/** The avatar's columns the presenters need (media row joined as `m`). */
const avatarColumns = sql`m.storage_key as avatar_key, m.variants as avatar_variants, m.width as avatar_width,
  m.height as avatar_height, m.placeholder as avatar_placeholder`;

export function categoryCondition(category: Category): SQL {
  switch (category) {
    case 'female':
    case 'male':
    case 'trans':
      return sql`p.gender = ${category}`;
    case 'dom':
      return sql`p.dominatrix`;
    default:
      return sql`true`;
  }
}

const activeListing = sql`(l.expires_at is null or l.expires_at > now())`;

export interface ListingScope {
  countryCode: string;
  cityId?: number;
  category: Category;
}

function scopeWhere(scope: ListingScope): SQL {
  // A country page shows each profile once: through its country_primary listing.
  const place = scope.cityId ? sql`l.city_id = ${scope.cityId}` : sql`l.country_primary`;
  return sql`l.country_code = ${scope.countryCode} and ${place} and ${activeListing} and p.listed and ${categoryCondition(scope.category)}`;
}

export async function findListings(db: Db, scope: ListingScope, limit: number, offset: number) {
  return queryRows<ListingRow>(
    db,
    sql`
    select l.id as listing_id, p.user_id, p.screen_name, p.heading, p.verification_status, l.kind,
           l.tour_from::text as tour_from, l.tour_until::text as tour_until, c.name as city, p.place,
           ${avatarColumns}
    from listings l
    join profiles p on p.user_id = l.profile_id
    join cities c on c.id = l.city_id
    left join media m on m.id = p.avatar_media_id
    where ${scopeWhere(scope)}
    order by ${rankingOrder('l')}
    limit ${limit} offset ${offset}`,
  );
}

export async function countListings(db: Db, scope: ListingScope): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from listings l join profiles p on p.user_id = l.profile_id
        where ${scopeWhere(scope)}`,
  );
  return Number(row.n);
}

export async function findCountryBySlug(db: Db, slug: string) {
  const [row] = await queryRows<{ code: string; slug: string; name: string }>(
    db,
    sql`select code, slug, name from countries where slug = ${slug}`,
  );
  return row ?? null;
}

export async function findCityBySlug(db: Db, countryCode: string, slug: string) {
  const [row] = await queryRows<{ id: number; slug: string; name: string }>(
    db,
    sql`select id, slug, name from cities where country_code = ${countryCode} and slug = ${slug}`,
  );
  return row ?? null;
}

export async function placesWithCounts(db: Db, countryCode: string, category: Category) {
  return queryRows<{ slug: string; name: string; count: number }>(
    db,
    sql`
    select c.slug, c.name, count(distinct l.profile_id)::int as count
    from listings l join profiles p on p.user_id = l.profile_id join cities c on c.id = l.city_id
    where l.country_code = ${countryCode} and ${activeListing} and p.listed and ${categoryCondition(category)}
    group by c.id, c.slug, c.name
    order by count desc, c.name
    limit 200`,
  );
}

export async function categoryCounts(db: Db, countryCode: string, cityId?: number) {
  const place = cityId ? sql`l.city_id = ${cityId}` : sql`true`;
  const [row] = await queryRows<Record<Category, number>>(
    db,
    sql`
    select count(distinct l.profile_id)::int as escorts,
           count(distinct l.profile_id) filter (where p.gender = 'female')::int as female,
           count(distinct l.profile_id) filter (where p.gender = 'male')::int as male,
           count(distinct l.profile_id) filter (where p.gender = 'trans')::int as trans,
           count(distinct l.profile_id) filter (where p.dominatrix)::int as dom
    from listings l join profiles p on p.user_id = l.profile_id
    where l.country_code = ${countryCode} and ${place} and ${activeListing} and p.listed`,
  );
  return row;
}

/** Countries with at least one listed profile of the category, and how many (what its country page shows). */
export async function countriesWithCounts(db: Db, category: Category) {
  return queryRows<{ code: string; slug: string; name: string; count: number }>(
    db,
    sql`
    select co.code, co.slug, co.name, count(distinct l.profile_id)::int as count
    from listings l join profiles p on p.user_id = l.profile_id join countries co on co.code = l.country_code
    where ${activeListing} and p.listed and ${categoryCondition(category)}
    group by co.code, co.slug, co.name
    order by co.name`,
  );
}

export interface ProfileRow {
  user_id: number;
  screen_name: string | null;
  heading: string | null;
  about: string | null;
  gender: string | null;
  sexuality: string | null;
  services: string[];
  personality: string[];
  languages: string[];
  currency: string;
  phone: string | null;
  landmark: string | null;
  place: string | null;
  ad_status: string;
  comments_enabled: boolean;
  dominatrix: boolean;
  links: Record<string, Record<string, string>>;
  availability: Record<string, { from: string; until: string } | null>;
  rates: { incall?: Record<string, number | null>; outcall?: Record<string, number | null> };
  listed: boolean;
  verification_status: string;
  verified_at: Date | string | null;
  views: number;
  last_seen_at: Date | string | null;
  city_id: number | null;
  city_name: string | null;
  city_slug: string | null;
  country_name: string | null;
  country_slug: string | null;
  avatar_key: string | null;
  avatar_variants: Record<string, string> | null;
  avatar_width: number | null;
  avatar_height: number | null;
  avatar_placeholder: string | null;
}

export async function findProfile(db: Db, where: SQL): Promise<ProfileRow | null> {
  const [row] = await queryRows<ProfileRow>(
    db,
    sql`
    select p.user_id, p.screen_name, p.heading, p.about, p.gender, p.sexuality, p.services, p.personality,
           p.languages, p.currency, p.phone, p.landmark, p.place, p.ad_status, p.comments_enabled, p.dominatrix,
           p.links, p.availability, p.rates, p.listed, p.verification_status, p.verified_at, p.views,
           a.last_seen_at, c.id as city_id, c.name as city_name, c.slug as city_slug,
           co.name as country_name, co.slug as country_slug, ${avatarColumns}
    from profiles p
    join accounts a on a.id = p.user_id
    left join cities c on c.id = p.city_id
    left join countries co on co.code = c.country_code
    left join media m on m.id = p.avatar_media_id
    where ${where} and a.status <> 'deleted'
    limit 1`,
  );
  return row ?? null;
}

/** What a cached profile answer takes fresh on every read (docs/decisions/0700). */
export async function findProfileLive(db: Db, userId: number) {
  const [row] = await queryRows<{ views: number; last_seen_at: Date | string | null }>(
    db,
    sql`select p.views, a.last_seen_at from profiles p join accounts a on a.id = p.user_id where p.user_id = ${userId}`,
  );
  return row ?? null;
}

export interface GalleryRow {
  id: number;
  type: string;
  storage_key: string;
  variants: Record<string, string>;
  width: number | null;
  height: number | null;
  placeholder: string | null;
}

export async function findGallery(db: Db, userId: number) {
  return queryRows<GalleryRow>(
    db,
    sql`
    select id, type, storage_key, variants, width, height, placeholder from media
    where user_id = ${userId} and status = 'approved' and type in ('gallery', 'video')
    order by type, position, id`,
  );
}

export async function findTours(db: Db, userId: number) {
  return queryRows<{ city: string; from: string | null; until: string | null }>(
    db,
    sql`
    select c.name as city, l.tour_from::text as "from", l.tour_until::text as until
    from listings l join cities c on c.id = l.city_id
    where l.profile_id = ${userId} and l.kind = 'additional' and ${activeListing}
    order by l.tour_from nulls last, l.id`,
  );
}

// ---------------------------------------------------------------- search

/** Words of a folded query; each must match the profile's search text (typo-tolerant trigram match). */
export function searchTerms(folded: string): string[] {
  return [...new Set(folded.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2))].slice(0, 6);
}

// Low enough for a swapped pair of letters in a short word ("lodnon" ~ "london" scores 0.27); only the
// three nearest words are kept, so a low bar does not flood the results.
const SIMILARITY = 0.25;
const like = (t: string) => '%' + t.replace(/[\\%_]/g, '\\$&') + '%';

const searchSelect = sql`
  select l.id as listing_id, p.user_id, p.screen_name, p.heading, p.verification_status, l.kind,
         null as tour_from, null as tour_until, c.name as city, p.place, ${avatarColumns}
  from listings l
  join profiles p on p.user_id = l.profile_id
  join cities c on c.id = l.city_id
  left join media m on m.id = p.avatar_media_id`;

/** Every group must match: one of its words is a substring of the folded search text. */
function matchAll(groups: string[][]): SQL {
  return sql.join(
    groups.map(
      (words) =>
        sql`(${sql.join(
          words.map((w) => sql`p.search_text like ${like(w)}`),
          sql` or `,
        )})`,
    ),
    sql` and `,
  );
}

/**
 * Listed profiles matching every group, in position order like the directory (the planner either walks
 * the home-listing rank index or uses the trigram index, whichever is cheaper). The exact pass gives one
 * word per group; the typo-tolerant pass gives each query word's corrections as its group.
 */
export async function searchByWords(db: Db, groups: string[][], limit: number, offset: number) {
  return queryRows<ListingRow>(
    db,
    sql`${searchSelect}
    where l.kind = 'home' and p.listed and ${matchAll(groups)}
    order by ${rankingOrder('l')}
    limit ${limit} offset ${offset}`,
  );
}

/** How many profiles searchByWords can reach with these groups (each profile once: its home listing). */
export async function countByWords(db: Db, groups: string[][]) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from listings l join profiles p on p.user_id = l.profile_id
        where l.kind = 'home' and p.listed and ${matchAll(groups)}`,
  );
  return Number(row.n);
}

export async function hasMatch(db: Db, groups: string[][]) {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from profiles p where p.listed and ${matchAll(groups)} limit 1`,
  );
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

/** Periodic task: the word list behind typo tolerance. */
export async function refreshSearchWords(db: Db) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      create temporary table fresh_words on commit drop as
      select w as word, count(distinct p.user_id)::int as profiles
      from profiles p, regexp_split_to_table(p.search_text, '[^[:alnum:]]+') as w
      where p.listed and length(w) >= 3
      group by w`);
    await tx.execute(
      sql`delete from search_words s where not exists (select 1 from fresh_words f where f.word = s.word)`,
    );
    await tx.execute(sql`
      insert into search_words (word, profiles) select word, profiles from fresh_words
      on conflict (word) do update set profiles = excluded.profiles
      where search_words.profiles <> excluded.profiles`);
  });
}

// ---------------------------------------------------------------- nearby

export interface CityWithListings {
  city_id: number;
  country_code: string;
  lat: number;
  lng: number;
  /** Its public listings in the category. */
  listings: number;
}

/** Cities that have public listings in a category (the nearby search walks these, nearest first). */
export async function citiesWithListings(db: Db, category: Category) {
  return queryRows<CityWithListings>(
    db,
    sql`
    select l.city_id, l.country_code, c.lat, c.lng, count(*)::int as listings
    from listings l join profiles p on p.user_id = l.profile_id join cities c on c.id = l.city_id
    where ${activeListing} and p.listed and ${categoryCondition(category)}
    group by l.city_id, l.country_code, c.lat, c.lng`,
  );
}

/**
 * The first `perCity` listings of each city, in the cities' order and each city's directory order, as
 * ids only: one query, one short walk of the city rank index per city (issue 8: a deep nearby page
 * used to be one query per city). The page's rows are then read by `findListingsByIds`.
 */
export async function rankInCities(db: Db, cityIds: number[], category: Category, perCity: number) {
  if (!cityIds.length) return [];
  const ids = sql.join(
    cityIds.map((id) => sql`${id}::int`),
    sql`, `,
  );
  return queryRows<{ listing_id: number; user_id: number; city_id: number }>(
    db,
    sql`
    select x.listing_id, x.user_id, o.city_id from unnest(array[${ids}]) with ordinality as o(city_id, ord)
    cross join lateral (
      select l.id as listing_id, l.id, l.profile_id as user_id, l.bumped_at
      from listings l join profiles p on p.user_id = l.profile_id
      where l.city_id = o.city_id and ${activeListing} and p.listed and ${categoryCondition(category)}
      order by ${rankingOrder('l')}
      limit ${perCity}
    ) x
    order by o.ord, ${rankingOrder('x')}`,
  );
}

/** Listings by id, in the order given (ids that are no longer public are left out). */
export async function findListingsByIds(db: Db, listingIds: number[]): Promise<ListingRow[]> {
  if (!listingIds.length) return [];
  const ids = sql.join(
    listingIds.map((id) => sql`${id}::int`),
    sql`, `,
  );
  const rows = await queryRows<ListingRow>(
    db,
    sql`
    select l.id as listing_id, p.user_id, p.screen_name, p.heading, p.verification_status, l.kind,
           l.tour_from::text as tour_from, l.tour_until::text as tour_until, c.name as city, p.place,
           ${avatarColumns}
    from listings l
    join profiles p on p.user_id = l.profile_id
    join cities c on c.id = l.city_id
    left join media m on m.id = p.avatar_media_id
    where l.id in (${ids}) and ${activeListing} and p.listed`,
  );
  const byId = new Map(rows.map((r) => [r.listing_id, r]));
  return listingIds.flatMap((id) => byId.get(id) ?? []);
}

// ---------------------------------------------------------------- stats and feedback

export type StatColumn = 'impressions' | 'views' | 'phone_reveals';

/** Adds to today's counter of each profile (only profiles that exist and are listed count). */
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
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from profiles where user_id = ${profileId} and listed`,
  );
  return rows.length > 0;
}

export async function incrementProfileViews(db: Db, profileId: number) {
  await db.execute(sql`update profiles set views = views + 1 where user_id = ${profileId}`);
}

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
