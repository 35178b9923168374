// SQL of the edit calls: the profile with its account state and city, the columns a section writes,
// the derived columns, the owner's daily counts and the city picker.
import { and, between, desc, eq, ilike, like, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, cities, cityNames, countries, profiles, profileStatsDaily } from '../../db/schema';
import type { NameLanguage } from '../geo/city-names';
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
  /** Given at registration (YYYY-MM-DD): never sent out, only the age computed from it. */
  dateOfBirth: string;
  city: CityRow | null;
}

export async function loadProfile(db: Conn, userId: number): Promise<EditableProfile | null> {
  const [row] = await db
    .select({ profile: profiles, accountStatus: accounts.status, dateOfBirth: accounts.dateOfBirth })
    .from(profiles)
    .innerJoin(accounts, eq(accounts.id, profiles.userId))
    .where(eq(profiles.userId, userId));
  if (!row || row.accountStatus === 'deleted') return null;
  const city = row.profile.cityId ? await cityById(db, row.profile.cityId) : null;
  return { profile: row.profile, accountStatus: row.accountStatus, dateOfBirth: row.dateOfBirth, city };
}

export async function cityById(db: Conn, id: number): Promise<CityRow | null> {
  const [row] = await db
    .select(cityColumns)
    .from(cities)
    .innerJoin(countries, eq(countries.code, cities.countryCode))
    .where(eq(cities.id, id));
  return row ?? null;
}

/** Saves columns of the profile at `now` (the app's clock: the sitemap's lastmod). */
export async function updateProfile(tx: Tx, userId: number, now: Date, values: ProfileValues): Promise<void> {
  await tx
    .update(profiles)
    .set({ ...values, updatedAt: now })
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

export async function dailyStats(db: Conn, userId: number, from: string, until: string) {
  const d = profileStatsDaily;
  return db
    .select({ day: d.day, impressions: d.impressions, views: d.views, phone_reveals: d.phoneReveals })
    .from(d)
    .where(and(eq(d.profileId, userId), between(d.day, from, until)))
    .orderBy(d.day);
}

export type StatsRow = Awaited<ReturnType<typeof dailyStats>>[number];

/**
 * City picker: names containing the text (the English name, or the name in `lang` where one is known:
 * "münch" finds Munich on a German page), or slugs starting with its slug ("zur" finds Zürich); those
 * whose name or slug starts with it first, then big cities first. Named in `lang` where it has a name.
 */
export async function findCities(
  db: Conn,
  q: string,
  slug: string,
  country: string | undefined,
  limit: number,
  lang: NameLanguage | null,
) {
  const pattern = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  const bySlug = slug ? like(cities.slug, `${slug}%`) : undefined;
  const named = (p: string) => or(ilike(cities.name, p), lang ? ilike(cityNames.name, p) : undefined);
  const starts = or(named(`${pattern}%`), bySlug);
  return db
    .select({
      id: cities.id,
      name: lang ? sql<string>`coalesce(${cityNames.name}, ${cities.name})` : cities.name,
      slug: cities.slug,
      country_code: cities.countryCode,
      country_name: countries.name,
      country_slug: countries.slug,
      population: cities.population,
    })
    .from(cities)
    .innerJoin(countries, eq(countries.code, cities.countryCode))
    .leftJoin(cityNames, and(eq(cityNames.cityId, cities.id), eq(cityNames.lang, lang ?? '')))
    .where(and(or(named(`%${pattern}%`), bySlug), country ? eq(cities.countryCode, country) : undefined))
    .orderBy(desc(sql`(${starts})`), desc(cities.population), cities.name, cities.id)
    .limit(limit);
}
