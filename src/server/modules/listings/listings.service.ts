// Listings are where a profile appears: its home city and each additional location it bought. Their
// order is the ranking rule of DESIGN.md: bumped_at descending, ties by id. Every change of a listing
// goes through here so `country_primary` (one entry per profile on a country page) stays right.
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client';
import { cities, listings, profiles } from '../../db/schema';

/** Recomputes which listing of each profile stands for it on its country pages. */
export async function refreshCountryPrimary(db: Db | Tx, profileIds?: number[]) {
  if (profileIds && !profileIds.length) return;
  const only = profileIds
    ? sql`and l.profile_id in (${sql.join(
        profileIds.map((id) => sql`${id}::int`),
        sql`, `,
      )})`
    : sql``;
  await db.execute(sql`
    update listings l set country_primary = (l.id = best.id)
    from (
      select distinct on (l.profile_id, l.country_code) l.profile_id, l.country_code, l.id
      from listings l
      where (l.expires_at is null or l.expires_at > now()) ${only}
      order by l.profile_id, l.country_code, l.bumped_at desc, l.id
    ) best
    where best.profile_id = l.profile_id and best.country_code = l.country_code ${only}
      and l.country_primary is distinct from (l.id = best.id)`);
  // Expired listings stand for nothing.
  await db.execute(sql`
    update listings l set country_primary = false
    where l.expires_at is not null and l.expires_at <= now() and l.country_primary ${only}`);
}

/** Standard top-up: every listing of the profile moves to position 1 of its place. */
export async function bumpProfile(db: Db | Tx, profileId: number, at: Date) {
  await db.execute(
    sql`update listings set bumped_at = ${at.toISOString()}::timestamptz where profile_id = ${profileId}`,
  );
  await refreshCountryPrimary(db, [profileId]);
}

/** Periodic task: drops additional locations whose 30 days are over. */
export async function removeExpiredListings(db: Db) {
  const rows = await queryRows<{ profile_id: number }>(
    db,
    sql`delete from listings where kind = 'additional' and expires_at <= now() returning profile_id`,
  );
  const ids = [...new Set(rows.map((r) => r.profile_id))];
  await refreshCountryPrimary(db, ids);
  return ids.length;
}

/**
 * The advertiser's position (DESIGN.md "Directory and position"): the rank, 1 = top, of the profile's
 * home listing among the public listings of its home city for `escorts`. null when the profile has no
 * public home listing (incomplete, hidden, flagged...).
 */
export async function positionOf(db: Db | Tx, profileId: number, now: Date): Promise<number | null> {
  const [row] = await queryRows<{ position: number | null }>(
    db,
    sql`
    select (
      select count(*)::int + 1 from listings o join profiles op on op.user_id = o.profile_id
      where o.city_id = h.city_id and op.listed and (o.expires_at is null or o.expires_at > ${now.toISOString()}::timestamptz)
        and (o.bumped_at > h.bumped_at or (o.bumped_at = h.bumped_at and o.id < h.id))
    ) as position
    from listings h join profiles p on p.user_id = h.profile_id
    where h.profile_id = ${profileId} and h.kind = 'home' and p.listed`,
  );
  return row ? Number(row.position) : null;
}

export interface CityInfo {
  id: number;
  name: string;
  countryCode: string;
  timezone: string;
}

/** Cities by id (the cart names its additional locations). */
export async function citiesByIds(db: Db | Tx, ids: number[]): Promise<Map<number, CityInfo>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: cities.id, name: cities.name, countryCode: cities.countryCode, timezone: cities.timezone })
    .from(cities)
    .where(inArray(cities.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The city of the profile's home listing: where it ranks, and whose clock its auto-topup follows. */
export async function homeCityOf(db: Db | Tx, profileId: number): Promise<CityInfo | null> {
  const [row] = await db
    .select({ id: cities.id, name: cities.name, countryCode: cities.countryCode, timezone: cities.timezone })
    .from(listings)
    .innerJoin(cities, eq(cities.id, listings.cityId))
    .where(and(eq(listings.profileId, profileId), eq(listings.kind, 'home')))
    .limit(1);
  return row ?? null;
}

/**
 * Additional location (DESIGN.md): lists the profile in another city for `days` days from `now`, at the top
 * of that city (bumped now), optionally as a tour with dates. A city it is already listed in as an
 * additional location gets `days` more from its current end, keeping its rank.
 */
export async function addAdditionalListing(
  db: Db | Tx,
  input: { profileId: number; cityId: number; days: number; from: string | null; until: string | null; now: Date },
) {
  const { profileId, cityId, days, from, until, now } = input;
  const extended = await db
    .update(listings)
    .set({
      expiresAt: sql`greatest(${listings.expiresAt}, ${now.toISOString()}::timestamptz) + make_interval(days => ${days})`,
      tourFrom: from,
      tourUntil: until,
    })
    .where(
      and(
        eq(listings.profileId, profileId),
        eq(listings.cityId, cityId),
        eq(listings.kind, 'additional'),
        gt(listings.expiresAt, now),
      ),
    )
    .returning({ id: listings.id });
  if (!extended.length) {
    const [city] = await db.select({ countryCode: cities.countryCode }).from(cities).where(eq(cities.id, cityId));
    if (!city) throw new Error(`city ${cityId} does not exist`);
    await db.insert(listings).values({
      profileId,
      cityId,
      countryCode: city.countryCode,
      kind: 'additional',
      bumpedAt: now,
      tourFrom: from,
      tourUntil: until,
      expiresAt: new Date(now.getTime() + days * 86_400_000),
    });
  }
  await refreshCountryPrimary(db, [profileId]);
}

/** Screen names of profiles, for lists that name them (admin views of money and auto-topup). */
export async function screenNamesOf(db: Db | Tx, ids: number[]): Promise<Map<number, string | null>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: profiles.userId, name: profiles.screenName })
    .from(profiles)
    .where(inArray(profiles.userId, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}
