// Listings are where a profile appears: its home city and each additional location it bought. Their
// order is the ranking rule of DESIGN.md, built from #shared/ranking.ts (the rule /what-you-get states). Every change of a listing
// goes through here so `country_primary` (one entry per profile on a country page) stays right. The
// queries are listings.repo.ts; what other modules read of it (positions, home cities, the ranking
// clause) is re-exported here, their one way in.
import type { Db, Tx } from '../../db/client';
import * as repo from './listings.repo';
import { refreshCountryPrimary } from './listings.repo';
import { assertTourDates, paidUntilAfter, tourDatesProblem, tourMoments } from './tour-dates';

export {
  activeAdditionalIn,
  citiesByIds,
  homeCityOf,
  listingsOf,
  positionOf,
  rankingOrder,
  refreshCountryPrimary,
  screenNamesOf,
  type CityInfo,
  type ListingOfProfile,
} from './listings.repo';

/** Standard top-up: every listing of the profile moves to position 1 of its place. */
export async function bumpProfile(db: Db | Tx, profileId: number, at: Date) {
  await repo.setBumpedAt(db, profileId, at);
  await refreshCountryPrimary(db, at, [profileId]);
}

/**
 * Periodic task: drops additional locations whose 30 days are over at `now` (the app's clock), and moves
 * their profiles' country flag. Until it runs, a country page lets the profile's next unexpired listing
 * stand in for an expired flagged one (directory.repo.ts `countryListings`, docs/decisions/0723).
 */
export async function removeExpiredListings(db: Db, now: Date) {
  const ids = await repo.deleteExpiredAdditional(db, now);
  await refreshCountryPrimary(db, now, ids);
  return ids.length;
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
  const city = (await repo.citiesByIds(db, [input.cityId])).get(input.cityId);
  if (!city) return null;
  const running = await repo.runningIn(db, input.profileId, input.cityId, input.now);
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
  if (!(await repo.updateRunningAdditional(db, { profileId, cityId, now }, values))) {
    await repo.insertListing(db, {
      profileId,
      cityId,
      countryCode: await repo.countryOfCity(db, cityId),
      kind: 'additional',
      bumpedAt: now,
      createdAt: now,
      ...values,
    });
  }
  await refreshCountryPrimary(db, now, [profileId]);
}

/**
 * The home listing follows the profile's city (Location section): created on the first city, at the
 * top of it (a new ad is news); moved, rank kept, when the city changes. A city the profile already has
 * an additional location in cannot become home (it would be listed there twice): the caller refuses it.
 */
export async function setHomeListing(tx: Tx, profileId: number, cityId: number, now: Date) {
  const countryCode = await repo.countryOfCity(tx, cityId);
  if (!(await repo.moveHome(tx, profileId, cityId, countryCode))) {
    await repo.insertListing(tx, { profileId, cityId, countryCode, kind: 'home', bumpedAt: now, createdAt: now });
  }
  await refreshCountryPrimary(tx, now, [profileId]);
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
  const row = await repo.runningAdditionalById(db, input.profileId, input.listingId, now);
  const paidUntil = row?.paidUntil ?? row?.expiresAt;
  if (!row || !paidUntil) return false;
  const period = { paidUntil, timezone: row.timezone };
  assertTourDates(input, { now, ...period });
  const { tourStartsAt, expiresAt } = tourMoments(input, period);
  return repo.updateRunningAdditionalById(
    db,
    { profileId: input.profileId, listingId: input.listingId, now },
    { tourFrom: input.from, tourUntil: input.until, tourStartsAt, expiresAt, paidUntil },
  );
}
