// SQL of listings: where a profile appears (its home city and each additional location it bought), its
// rank there by the published ranking rule (#shared/ranking.ts, raw SQL: docs/decisions/0915), and the
// `country_primary` flag that lets one listing per profile stand for it on a country page.
import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import { rankedAbove, rankingOrderBy } from '#shared/ranking.ts';
import { queryRows, type Db, type Tx } from '../../db/client';
import { cities, countries, listings, profiles } from '../../db/schema';

type Conn = Db | Tx;
export type ListingValues = Partial<typeof listings.$inferInsert>;

/** ORDER BY of a list over listings aliased `alias`: the published ranking rule (directory lists use it). */
export const rankingOrder = (alias: string) => sql.raw(rankingOrderBy(alias));
const RANK_L = rankingOrder('l');
/** Listing `o` ranks above listing `h` (positions count these). */
const O_ABOVE_H = sql.raw(rankedAbove('o', 'h'));

/**
 * Recomputes which listing of each profile stands for it on its country pages, at `now` (the app's
 * clock: a listing expired by it stands for nothing). Raw SQL: an update from a `distinct on` over the
 * ranking clause (docs/decisions/0915).
 */
export async function refreshCountryPrimary(db: Conn, now: Date, profileIds?: number[]) {
  const at = sql`${now.toISOString()}::timestamptz`;
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
      where (l.expires_at is null or l.expires_at > ${at}) ${only}
      order by l.profile_id, l.country_code, ${RANK_L}
    ) best
    where best.profile_id = l.profile_id and best.country_code = l.country_code ${only}
      and l.country_primary is distinct from (l.id = best.id)`);
  // Expired listings stand for nothing.
  await db.execute(sql`
    update listings l set country_primary = false
    where l.expires_at is not null and l.expires_at <= ${at} and l.country_primary ${only}`);
}

/** Every listing of the profile moves to the top of its place (a bump at `at`). */
export async function setBumpedAt(db: Conn, profileId: number, at: Date) {
  await db.update(listings).set({ bumpedAt: at }).where(eq(listings.profileId, profileId));
}

/** Deletes the additional locations whose end is at or before `now`; the profiles they belonged to. */
export async function deleteExpiredAdditional(db: Conn, now: Date): Promise<number[]> {
  const rows = await db
    .delete(listings)
    .where(and(eq(listings.kind, 'additional'), lte(listings.expiresAt, now)))
    .returning({ profileId: listings.profileId });
  return [...new Set(rows.map((r) => r.profileId))];
}

/**
 * The advertiser's position (DESIGN.md "Directory and position"): the rank, 1 = top, of the profile's
 * home listing among the public listings of its home city for `escorts`. null when the profile has no
 * public home listing (incomplete, hidden, flagged...).
 */
export async function positionOf(db: Conn, profileId: number, now: Date): Promise<number | null> {
  const [row] = await queryRows<{ position: number | null }>(
    db,
    sql`
    select (
      select count(*)::int + 1 from listings o join profiles op on op.user_id = o.profile_id
      where o.city_id = h.city_id and op.listed and (o.expires_at is null or o.expires_at > ${now.toISOString()}::timestamptz)
        and ${O_ABOVE_H}
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
export async function citiesByIds(db: Conn, ids: number[]): Promise<Map<number, CityInfo>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: cities.id, name: cities.name, countryCode: cities.countryCode, timezone: cities.timezone })
    .from(cities)
    .where(inArray(cities.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The city of the profile's home listing: where it ranks, and whose clock its auto-topup follows. */
export async function homeCityOf(db: Conn, profileId: number): Promise<CityInfo | null> {
  const [row] = await db
    .select({ id: cities.id, name: cities.name, countryCode: cities.countryCode, timezone: cities.timezone })
    .from(listings)
    .innerJoin(cities, eq(cities.id, listings.cityId))
    .where(and(eq(listings.profileId, profileId), eq(listings.kind, 'home')))
    .limit(1);
  return row ?? null;
}

/** The profile's additional location in `cityId` that has not run out at `now` (at most one). */
const runningAdditional = (profileId: number, cityId: number, now: Date) =>
  and(
    eq(listings.profileId, profileId),
    eq(listings.cityId, cityId),
    eq(listings.kind, 'additional'),
    gt(listings.expiresAt, now),
  );

/** A listing's country is its city's (denormalised so a country page is one index range scan). */
export async function countryOfCity(db: Conn, cityId: number): Promise<string> {
  const [city] = await db.select({ countryCode: cities.countryCode }).from(cities).where(eq(cities.id, cityId));
  if (!city) throw new Error(`city ${cityId} does not exist`);
  return city.countryCode;
}

/** The profile's running additional location in `cityId` (at most one), with what its renewal needs. */
export async function runningIn(db: Conn, profileId: number, cityId: number, now: Date) {
  const [row] = await db
    .select({ id: listings.id, paidUntil: listings.paidUntil, expiresAt: listings.expiresAt })
    .from(listings)
    .where(runningAdditional(profileId, cityId, now));
  return row ?? null;
}

/** Sets `values` on the profile's running additional location in `cityId`; false when there is none. */
export async function updateRunningAdditional(
  db: Conn,
  where: { profileId: number; cityId: number; now: Date },
  values: ListingValues,
): Promise<boolean> {
  const extended = await db
    .update(listings)
    .set(values)
    .where(runningAdditional(where.profileId, where.cityId, where.now))
    .returning({ id: listings.id });
  return extended.length > 0;
}

export async function insertListing(db: Conn, values: typeof listings.$inferInsert) {
  await db.insert(listings).values(values);
}

/** Moves the profile's home listing to `cityId`, keeping its rank; false when it has none yet. */
export async function moveHome(db: Conn, profileId: number, cityId: number, countryCode: string): Promise<boolean> {
  const moved = await db
    .update(listings)
    .set({ cityId, countryCode })
    .where(and(eq(listings.profileId, profileId), eq(listings.kind, 'home')))
    .returning({ id: listings.id });
  return moved.length > 0;
}

/** An additional location of the profile that is still running in `cityId`, if any. */
export async function activeAdditionalIn(db: Conn, profileId: number, cityId: number, now: Date) {
  const [row] = await db
    .select({ id: listings.id })
    .from(listings)
    .where(runningAdditional(profileId, cityId, now));
  return row ?? null;
}

/** One running additional location of the profile, by id. */
const ownRunningAdditional = (profileId: number, listingId: number, now: Date) =>
  and(
    eq(listings.id, listingId),
    eq(listings.profileId, profileId),
    eq(listings.kind, 'additional'),
    gt(listings.expiresAt, now),
  );

/** The paid end and the city's zone of one running additional location of the profile, or null. */
export async function runningAdditionalById(db: Conn, profileId: number, listingId: number, now: Date) {
  const [row] = await db
    .select({ paidUntil: listings.paidUntil, expiresAt: listings.expiresAt, timezone: cities.timezone })
    .from(listings)
    .innerJoin(cities, eq(cities.id, listings.cityId))
    .where(ownRunningAdditional(profileId, listingId, now));
  return row ?? null;
}

/** Sets `values` on one running additional location of the profile; false when there is none. */
export async function updateRunningAdditionalById(
  db: Conn,
  where: { profileId: number; listingId: number; now: Date },
  values: ListingValues,
): Promise<boolean> {
  const rows = await db
    .update(listings)
    .set(values)
    .where(ownRunningAdditional(where.profileId, where.listingId, where.now))
    .returning({ id: listings.id });
  return rows.length > 0;
}

/** Screen names of profiles, for lists that name them (admin views of money and auto-topup). */
export async function screenNamesOf(db: Conn, ids: number[]): Promise<Map<number, string | null>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: profiles.userId, name: profiles.screenName })
    .from(profiles)
    .where(inArray(profiles.userId, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export interface ListingOfProfile {
  id: number;
  kind: 'home' | 'additional';
  cityId: number;
  cityName: string;
  citySlug: string;
  countryCode: string;
  countryName: string;
  countrySlug: string;
  timezone: string;
  tourFrom: string | null;
  tourUntil: string | null;
  expiresAt: Date | null;
  /** The end of the paid days (an additional location; a tour's listing may end before it). */
  paidUntil: Date | null;
  /** Rank in its city for `escorts` (1 = top); null while the profile is not listed. */
  position: number | null;
}

const h = alias(listings, 'h');
const o = alias(listings, 'o');
const op = alias(profiles, 'op');
const hp = alias(profiles, 'p');

/** The profile's running listings (home first, then additional locations by end date), with their rank. */
export async function listingsOf(db: Conn, profileId: number, now: Date): Promise<ListingOfProfile[]> {
  const running = (expiresAt: PgColumn) => or(isNull(expiresAt), gt(expiresAt, now));
  // Its rank among the city's public listings: the ranking clause, raw (docs/decisions/0915).
  const rank = db
    .select({ n: sql<number>`count(*)::int + 1` })
    .from(o)
    .innerJoin(op, eq(op.userId, o.profileId))
    .where(and(eq(o.cityId, h.cityId), eq(op.listed, true), running(o.expiresAt), O_ABOVE_H));
  const rows = await db
    .select({
      id: h.id,
      kind: h.kind,
      cityId: cities.id,
      cityName: cities.name,
      citySlug: cities.slug,
      countryCode: countries.code,
      countryName: countries.name,
      countrySlug: countries.slug,
      timezone: cities.timezone,
      tourFrom: h.tourFrom,
      tourUntil: h.tourUntil,
      expiresAt: h.expiresAt,
      paidUntil: sql<Date | null>`coalesce(${h.paidUntil}, ${h.expiresAt})`.mapWith(h.expiresAt),
      position: sql<number | null>`case when ${hp.listed} then (${rank}) end`.mapWith((v) =>
        v === null ? null : Number(v),
      ),
    })
    .from(h)
    .innerJoin(hp, eq(hp.userId, h.profileId))
    .innerJoin(cities, eq(cities.id, h.cityId))
    .innerJoin(countries, eq(countries.code, cities.countryCode))
    .where(and(eq(h.profileId, profileId), running(h.expiresAt)))
    .orderBy(desc(sql`${h.kind} = 'home'`), asc(h.expiresAt), h.id);
  return rows;
}
