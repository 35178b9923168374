// SQL of the edit calls: the profile with its account state and city, the columns a section writes,
// the derived columns, the owner's daily counts and the city picker.
import { and, eq, ne, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client';
import { accounts, cities, countries, profiles } from '../../db/schema';
import { buildSearchText, isComplete, isListed, missingFields, type RequiredProfileField } from './profile-derive';

type Conn = Db | Tx;
export type ProfileRow = typeof profiles.$inferSelect;
export type ProfileValues = Partial<typeof profiles.$inferInsert>;

export interface CityRow {
  id: number;
  name: string;
  slug: string;
  countryCode: string;
  countryName: string;
  countrySlug: string;
  population: number;
}

const cityColumns = {
  id: cities.id,
  name: cities.name,
  slug: cities.slug,
  countryCode: cities.countryCode,
  countryName: countries.name,
  countrySlug: countries.slug,
  population: cities.population,
};

export interface EditableProfile {
  profile: ProfileRow;
  accountStatus: 'active' | 'suspended' | 'deleted';
  city: CityRow | null;
}

export async function loadProfile(db: Conn, userId: number): Promise<EditableProfile | null> {
  const [row] = await db
    .select({ profile: profiles, accountStatus: accounts.status })
    .from(profiles)
    .innerJoin(accounts, eq(accounts.id, profiles.userId))
    .where(eq(profiles.userId, userId));
  if (!row || row.accountStatus === 'deleted') return null;
  const city = row.profile.cityId ? await cityById(db, row.profile.cityId) : null;
  return { profile: row.profile, accountStatus: row.accountStatus, city };
}

export async function cityById(db: Conn, id: number): Promise<CityRow | null> {
  const [row] = await db
    .select(cityColumns)
    .from(cities)
    .innerJoin(countries, eq(countries.code, cities.countryCode))
    .where(eq(cities.id, id));
  return row ?? null;
}

export async function updateProfile(tx: Tx, userId: number, values: ProfileValues): Promise<void> {
  await tx
    .update(profiles)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(profiles.userId, userId));
}

export async function screenNameTaken(db: Conn, name: string, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: profiles.userId })
    .from(profiles)
    .where(and(sql`lower(${profiles.screenName}) = lower(${name})`, ne(profiles.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

export interface Derived {
  complete: boolean;
  listed: boolean;
  searchText: string;
  missing: RequiredProfileField[];
}

/**
 * Recomputes what the directory derives from the profile (complete, listed, search text) from the row
 * as it is now in this transaction; returns the values before and after.
 */
export async function refreshDerived(tx: Tx, userId: number): Promise<{ before: Derived; after: Derived } | null> {
  const current = await loadProfile(tx, userId);
  if (!current) return null;
  const { profile, accountStatus, city } = current;
  const hasAvatar = profile.avatarMediaId !== null;
  const missing = missingFields(profile, hasAvatar);
  const complete = isComplete(profile, hasAvatar);
  const listed = isListed({ complete, adStatus: profile.adStatus, flagged: profile.flagged, accountStatus });
  const searchText = buildSearchText({
    screenName: profile.screenName,
    heading: profile.heading,
    cityName: city?.name,
    place: profile.place,
    services: profile.services,
  });
  const before: Derived = {
    complete: profile.complete,
    listed: profile.listed,
    searchText: profile.searchText,
    missing: [],
  };
  if (before.complete !== complete || before.listed !== listed || before.searchText !== searchText) {
    await tx.update(profiles).set({ complete, listed, searchText }).where(eq(profiles.userId, userId));
  }
  return { before, after: { complete, listed, searchText, missing } };
}

export interface StatsRow {
  day: string;
  impressions: number;
  views: number;
  phone_reveals: number;
}

export async function dailyStats(db: Conn, userId: number, from: string, until: string): Promise<StatsRow[]> {
  return queryRows<StatsRow>(
    db,
    sql`select day::text as day, impressions, views, phone_reveals from profile_stats_daily
        where profile_id = ${userId} and day between ${from}::date and ${until}::date order by day`,
  );
}

/**
 * City picker: names containing the text, or slugs starting with its slug ("zur" finds Zürich); those
 * whose name or slug starts with it first, then big cities first.
 */
export async function findCities(db: Conn, q: string, slug: string, country: string | undefined, limit: number) {
  const like = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  const slugPrefix = slug ? `${slug}%` : null;
  const bySlug = slugPrefix ? sql`c.slug like ${slugPrefix}` : sql`false`;
  const inCountry = country ? sql`and c.country_code = ${country}` : sql``;
  return queryRows<{
    id: number;
    name: string;
    slug: string;
    country_code: string;
    country_name: string;
    country_slug: string;
    population: number;
  }>(
    db,
    sql`
    select c.id, c.name, c.slug, c.country_code, co.name as country_name, co.slug as country_slug, c.population
    from cities c join countries co on co.code = c.country_code
    where (c.name ilike ${`%${like}%`} or ${bySlug}) ${inCountry}
    order by (c.name ilike ${`${like}%`} or ${bySlug}) desc, c.population desc, c.name, c.id
    limit ${limit}`,
  );
}
