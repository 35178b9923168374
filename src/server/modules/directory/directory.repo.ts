// SQL of the public directory. A listing is public when its profile is `listed` (complete, visible,
// not flagged, account active) and it has not expired. Order: bumped_at desc, then listing id.
import { sql, type SQL } from 'drizzle-orm';
import type { Category } from '#shared/constants';
import { queryRows, type Db } from '../../db/client';

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
}

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

/**
 * A profile listed twice in one country (home and a tour) shows once on the country page: only its
 * best-ranked listing there counts.
 */
const bestInCountry = sql`not exists (
  select 1 from listings l2
  where l2.profile_id = l.profile_id and l2.country_code = l.country_code and l2.id <> l.id
    and (l2.expires_at is null or l2.expires_at > now())
    and (l2.bumped_at > l.bumped_at or (l2.bumped_at = l.bumped_at and l2.id < l.id)))`;

export interface ListingScope {
  countryCode: string;
  cityId?: number;
  category: Category;
}

function scopeWhere(scope: ListingScope): SQL {
  const place = scope.cityId ? sql`l.city_id = ${scope.cityId}` : bestInCountry;
  return sql`l.country_code = ${scope.countryCode} and ${place} and ${activeListing} and p.listed and ${categoryCondition(scope.category)}`;
}

export async function findListings(db: Db, scope: ListingScope, limit: number, offset: number) {
  return queryRows<ListingRow>(
    db,
    sql`
    select l.id as listing_id, p.user_id, p.screen_name, p.heading, p.verification_status, l.kind,
           l.tour_from::text as tour_from, l.tour_until::text as tour_until, c.name as city, p.place,
           m.storage_key as avatar_key
    from listings l
    join profiles p on p.user_id = l.profile_id
    join cities c on c.id = l.city_id
    left join media m on m.id = p.avatar_media_id
    where ${scopeWhere(scope)}
    order by l.bumped_at desc, l.id
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

export async function countriesWithCounts(db: Db) {
  return queryRows<{ code: string; slug: string; name: string; count: number }>(
    db,
    sql`
    select co.code, co.slug, co.name, count(distinct l.profile_id)::int as count
    from listings l join profiles p on p.user_id = l.profile_id join countries co on co.code = l.country_code
    where ${activeListing} and p.listed
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
}

export async function findProfile(db: Db, where: SQL): Promise<ProfileRow | null> {
  const [row] = await queryRows<ProfileRow>(
    db,
    sql`
    select p.user_id, p.screen_name, p.heading, p.about, p.gender, p.sexuality, p.services, p.personality,
           p.languages, p.currency, p.phone, p.landmark, p.place, p.ad_status, p.comments_enabled, p.dominatrix,
           p.links, p.availability, p.rates, p.listed, p.verification_status, p.verified_at, p.views,
           a.last_seen_at, c.id as city_id, c.name as city_name, c.slug as city_slug,
           co.name as country_name, co.slug as country_slug, m.storage_key as avatar_key
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

export async function findGallery(db: Db, userId: number) {
  return queryRows<{ id: number; type: string; storage_key: string; variants: Record<string, string> }>(
    db,
    sql`
    select id, type, storage_key, variants from media
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
