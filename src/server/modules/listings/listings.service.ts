// Listings are where a profile appears: its home city and each additional location it bought. Their
// order is the ranking rule of DESIGN.md, built from #shared/ranking.ts (the rule /what-you-get states). Every change of a listing
// goes through here so `country_primary` (one entry per profile on a country page) stays right.
import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import { rankedAbove, rankingOrderBy } from '#shared/ranking.ts';
import { queryRows, type Db, type Tx } from '../../db/client';
import { cities, countries, listings, profiles } from '../../db/schema';
import { assertTourDates, paidUntilAfter, tourDatesProblem, tourMoments } from './tour-dates';

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
export async function refreshCountryPrimary(db: Db | Tx, now: Date, profileIds?: number[]) {
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

/** Standard top-up: every listing of the profile moves to position 1 of its place. */
export async function bumpProfile(db: Db | Tx, profileId: number, at: Date) {
  await db.update(listings).set({ bumpedAt: at }).where(eq(listings.profileId, profileId));
  await refreshCountryPrimary(db, at, [profileId]);
}

/**
 * Periodic task: drops additional locations whose 30 days are over at `now` (the app's clock), and moves
 * their profiles' country flag. Until it runs, a country page lets the profile's next unexpired listing
 * stand in for an expired flagged one (directory.repo.ts `countryListings`, docs/decisions/0723).
 */
export async function removeExpiredListings(db: Db, now: Date) {
  const rows = await db
    .delete(listings)
    .where(and(eq(listings.kind, 'additional'), lte(listings.expiresAt, now)))
    .returning({ profileId: listings.profileId });
  const ids = [...new Set(rows.map((r) => r.profileId))];
  await refreshCountryPrimary(db, now, ids);
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

/** The profile's additional location in `cityId` that has not run out at `now` (at most one). */
const runningAdditional = (profileId: number, cityId: number, now: Date) =>
  and(
    eq(listings.profileId, profileId),
    eq(listings.cityId, cityId),
    eq(listings.kind, 'additional'),
    gt(listings.expiresAt, now),
  );

/** A listing's country is its city's (denormalised so a country page is one index range scan). */
async function countryOfCity(db: Db | Tx, cityId: number): Promise<string> {
  const [city] = await db.select({ countryCode: cities.countryCode }).from(cities).where(eq(cities.id, cityId));
  if (!city) throw new Error(`city ${cityId} does not exist`);
  return city.countryCode;
}

/** The profile's running additional location in `cityId` (at most one), with what its renewal needs. */
async function runningIn(db: Db | Tx, profileId: number, cityId: number, now: Date) {
  const [row] = await db
    .select({ id: listings.id, paidUntil: listings.paidUntil, expiresAt: listings.expiresAt })
    .from(listings)
    .where(runningAdditional(profileId, cityId, now));
  return row ?? null;
}

/**
 * What buying `days` of an additional location in `cityId` at `now` pays for: the paid days end at
 * `paidUntil` (from the running location's paid end when there is one: a renewal), and tour dates must lie
 * within them (tour-dates.ts). The cart checks dates with it; delivery computes the same.
 */
export async function additionalPeriod(
  db: Db | Tx,
  input: { profileId: number; cityId: number; days: number; now: Date },
): Promise<{ paidUntil: Date; timezone: string; renewal: boolean } | null> {
  const city = (await citiesByIds(db, [input.cityId])).get(input.cityId);
  if (!city) return null;
  const running = await runningIn(db, input.profileId, input.cityId, input.now);
  const current = running ? (running.paidUntil ?? running.expiresAt) : null;
  return { paidUntil: paidUntilAfter(current, input.days, input.now), timezone: city.timezone, renewal: !!running };
}

/**
 * Additional location (DESIGN.md): lists the profile in another city for `days` paid days from `now`, at
 * the top of that city (bumped now), optionally as a tour with dates; a tour's listing ends with its last
 * day (docs/decisions/0403). A city it is already listed in as an additional location gets `days` more
 * paid days from their current end, keeping its rank, and the purchase's dates. Dates that no longer fit
 * when a late payment delivers (the cart checked them when they were added) are dropped rather than
 * letting a paid location end before it starts: the advertiser sets them again on the listings screen.
 */
export async function addAdditionalListing(
  db: Db | Tx,
  input: { profileId: number; cityId: number; days: number; from: string | null; until: string | null; now: Date },
) {
  const { profileId, cityId, days, now } = input;
  const period = await additionalPeriod(db, { profileId, cityId, days, now });
  if (!period) throw new Error(`city ${cityId} does not exist`);
  const fits = !tourDatesProblem(input, { now, ...period });
  const dates = fits ? { from: input.from, until: input.until } : { from: null, until: null };
  const { tourStartsAt, expiresAt } = tourMoments(dates, period);
  const values = {
    tourFrom: dates.from,
    tourUntil: dates.until,
    tourStartsAt,
    expiresAt,
    paidUntil: period.paidUntil,
  };
  const extended = await db
    .update(listings)
    .set(values)
    .where(runningAdditional(profileId, cityId, now))
    .returning({ id: listings.id });
  if (!extended.length) {
    await db.insert(listings).values({
      profileId,
      cityId,
      countryCode: await countryOfCity(db, cityId),
      kind: 'additional',
      bumpedAt: now,
      createdAt: now,
      ...values,
    });
  }
  await refreshCountryPrimary(db, now, [profileId]);
}

/**
 * The next moment after `at` at which a listing changes what the directory shows without any write: one
 * expires, or a tour starts (its card turns from "visiting from" to "on tour"). SQL text of one timestamptz
 * expression (null: none), for the directory version's statement (directory.version.ts), which makes it
 * part of the cached answers' keys. `at`: SQL text of a timestamptz (a literal: the statement has no
 * parameter); `where`: SQL text narrowing it to a scope's listings (a country, a city, a profile). Each
 * branch is one step down a partial index (listings_expires / listings_tour_starts, and their country
 * and city forms).
 */
export function nextListingChangeSql(at: string, where?: string): string {
  const and = where ? ` and ${where}` : '';
  return `least(
    (select min(expires_at) from listings where expires_at > ${at}${and}),
    (select min(tour_starts_at) from listings where tour_starts_at > ${at}${and}))`;
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

/**
 * The home listing follows the profile's city (Location section): created on the first city, at the
 * top of it (a new ad is news); moved, rank kept, when the city changes. A city the profile already has
 * an additional location in cannot become home (it would be listed there twice): the caller refuses it.
 */
export async function setHomeListing(tx: Tx, profileId: number, cityId: number, now: Date) {
  const countryCode = await countryOfCity(tx, cityId);
  const moved = await tx
    .update(listings)
    .set({ cityId, countryCode })
    .where(and(eq(listings.profileId, profileId), eq(listings.kind, 'home')))
    .returning({ id: listings.id });
  if (!moved.length) {
    await tx.insert(listings).values({ profileId, cityId, countryCode, kind: 'home', bumpedAt: now, createdAt: now });
  }
  await refreshCountryPrimary(tx, now, [profileId]);
}

/** An additional location of the profile that is still running in `cityId`, if any. */
export async function activeAdditionalIn(db: Db | Tx, profileId: number, cityId: number, now: Date) {
  const [row] = await db
    .select({ id: listings.id })
    .from(listings)
    .where(runningAdditional(profileId, cityId, now));
  return row ?? null;
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
export async function listingsOf(db: Db | Tx, profileId: number, now: Date): Promise<ListingOfProfile[]> {
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

/**
 * Tour dates of one running additional location of the profile, within its paid days (422 otherwise: the
 * rule of tour-dates.ts); the listing then ends with the tour. false when there is no such listing.
 */
export async function setTourDates(
  db: Db | Tx,
  input: { profileId: number; listingId: number; from: string | null; until: string | null; now: Date },
): Promise<boolean> {
  const { now } = input;
  const mine = and(
    eq(listings.id, input.listingId),
    eq(listings.profileId, input.profileId),
    eq(listings.kind, 'additional'),
    gt(listings.expiresAt, now),
  );
  const [row] = await db
    .select({ paidUntil: listings.paidUntil, expiresAt: listings.expiresAt, timezone: cities.timezone })
    .from(listings)
    .innerJoin(cities, eq(cities.id, listings.cityId))
    .where(mine);
  const paidUntil = row?.paidUntil ?? row?.expiresAt;
  if (!row || !paidUntil) return false;
  const period = { paidUntil, timezone: row.timezone };
  assertTourDates(input, { now, ...period });
  const { tourStartsAt, expiresAt } = tourMoments(input, period);
  const rows = await db
    .update(listings)
    .set({ tourFrom: input.from, tourUntil: input.until, tourStartsAt, expiresAt, paidUntil })
    .where(mine)
    .returning({ id: listings.id });
  return rows.length > 0;
}
