// The advertiser's edit calls (spec sections 2, 3, 5, 7; docs/decisions/0310): every section of
// /edit/{id}, the three switches of the ad, the overview, the city picker and the listings screen.
// Each change runs in one transaction that also recomputes what the directory derives from the profile
// (complete, listed, search text, the home listing and its country-primary flag), so a saved change is
// in the directory, search and the /dom lists with the next request.
import { msg } from '#shared/api/messages.ts';
import { RATE_KEYS, WEEKDAYS, type Language } from '#shared/constants.ts';
import { ageOn } from '#shared/rules/date-of-birth.ts';
import { LINK_KEYS } from '#shared/rules/profile-fields.ts';
import { ageChecked } from '#shared/rules/shown-age.ts';
import type {
  Attribute,
  AvailableNowBody,
  AvailableNowResponse,
  CitiesResponse,
  ListingsResponse,
  Overview,
  SetAttributeBody,
  TourDatesBody,
  UpdateBody,
  UpdateData,
} from '#shared/schemas/profile-edit.ts';
import type { AppContext } from '../../context';
import { lockAccount } from '../../db/account-lock';
import { writeAudit } from '../../db/audit';
import { pgErrorCode, type Tx } from '../../db/client';
import { notFound, ValidationError } from '../../lib/errors';
import * as policy from '../../policies';
import type { SessionUser } from '../../plugins/session';
import { nameLanguage } from '../geo/city-names';
import { slugify } from '../geo/slug';
import {
  activeAdditionalIn,
  listingsOf,
  positionOf,
  refreshCountryPrimary,
  setHomeListing,
  setTourDates as writeTourDates,
} from '../listings/listings.service';
import { daysLeft, lastPaidDay } from '../listings/tour-dates';
import { balanceOf } from '../money/money.service';
import { presentProfile } from './profile-edit.presenter';
import * as repo from './profile-edit.repo';

const UNIQUE_VIOLATION = '23505';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const CITY_RESULTS = 20;

type Actor = Pick<SessionUser, 'id' | 'role'>;

async function mustLoad(ctx: AppContext, userId: number) {
  const current = await repo.loadProfile(ctx.db, userId);
  if (!current) throw notFound();
  return current;
}

export async function getUpdateData(ctx: AppContext, userId: number): Promise<UpdateData> {
  return presentProfile(await mustLoad(ctx, userId));
}

/**
 * Runs `change` on the locked account and re-derives the directory's columns in the same transaction.
 * The directory's answers follow by themselves: the database versions every write (docs/decisions/0700).
 */
async function edit(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  action: string,
  change: (tx: Tx, current: repo.EditableProfile) => Promise<void>,
  /** false: the change touches nothing complete, listed or the search text read (age, availability). */
  derive = true,
) {
  try {
    await ctx.db.transaction(async (tx) => {
      if (!(await lockAccount(tx, userId))) throw notFound();
      const current = await repo.loadProfile(tx, userId);
      if (!current) throw notFound();
      await change(tx, current);
      if (derive) await repo.refreshDerived(tx, userId);
      if (actor.id !== userId) {
        await writeAudit(tx, { actorId: actor.id, action, targetUserId: userId, at: ctx.now() });
      }
    });
  } catch (err) {
    // Two owners racing for one screen name: the unique index decides, the loser hears it like a check.
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw ValidationError.field('screen_name', msg('edit.screenNameTaken'));
    throw err;
  }
}

/** The routes check the path's id; /update names the profile in the body, so it is asked here too. */
function assertMayEdit(actor: Actor, userId: number) {
  policy.authorize(actor, 'update', policy.profile(userId));
}

const nullIfEmpty = (v: string | undefined | null) => (v && v.trim() ? v.trim() : null);

function fullRates(rates: Extract<UpdateBody, { section: 'rates' }>) {
  const pick = <K extends string>(keys: readonly K[], values: Partial<Record<K, number | null>>) =>
    Object.fromEntries(keys.map((k) => [k, values[k] ?? null])) as Record<string, number | null>;
  return { incall: pick(RATE_KEYS.incall, rates.incall), outcall: pick(RATE_KEYS.outcall, rates.outcall) };
}

function cleanLinks(links: Extract<UpdateBody, { section: 'links' }>['links']) {
  const out: Record<string, Record<string, string>> = {};
  for (const group of Object.keys(LINK_KEYS) as Array<keyof typeof LINK_KEYS>) {
    const entries = Object.entries(links[group] ?? {}).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0,
    );
    if (entries.length) out[group] = Object.fromEntries(entries);
  }
  return out;
}

/** POST /update: saves one section; answers the profile's edit data as it is now. */
export async function update(ctx: AppContext, actor: Actor, body: UpdateBody): Promise<UpdateData> {
  const userId = body.user_id ?? actor.id;
  assertMayEdit(actor, userId);
  await edit(ctx, actor, userId, `profile.update.${body.section}`, async (tx) => {
    switch (body.section) {
      case 'screen_name':
        if (await repo.screenNameTaken(tx, body.screen_name, userId))
          throw ValidationError.field('screen_name', msg('edit.screenNameTaken'));
        return repo.updateProfile(tx, userId, ctx.now(), { screenName: body.screen_name });
      case 'heading':
        return repo.updateProfile(tx, userId, ctx.now(), { heading: body.heading });
      case 'about':
        return repo.updateProfile(tx, userId, ctx.now(), { about: body.about });
      case 'gender':
        return repo.updateProfile(tx, userId, ctx.now(), { gender: body.gender });
      case 'sexuality':
        return repo.updateProfile(tx, userId, ctx.now(), { sexuality: body.sexuality });
      case 'phone':
        return repo.updateProfile(tx, userId, ctx.now(), { phone: body.phone });
      case 'services':
        return repo.updateProfile(tx, userId, ctx.now(), { services: body.services });
      case 'personality':
        return repo.updateProfile(tx, userId, ctx.now(), { personality: body.personality });
      case 'language':
        return repo.updateProfile(tx, userId, ctx.now(), { languages: body.languages });
      case 'rates':
        return repo.updateProfile(tx, userId, ctx.now(), { currency: body.currency, rates: fullRates(body) });
      case 'availability':
        return repo.updateProfile(tx, userId, ctx.now(), {
          availability: Object.fromEntries(WEEKDAYS.map((d) => [d, body.availability[d] ?? null])),
        });
      case 'links':
        return repo.updateProfile(tx, userId, ctx.now(), { links: cleanLinks(body.links) });
      case 'location': {
        const city = await repo.cityById(tx, body.city_id);
        if (!city) throw ValidationError.field('city_id', msg('edit.cityNotFound'));
        if (await activeAdditionalIn(tx, userId, city.id, ctx.now()))
          throw ValidationError.field('city_id', msg('edit.cityIsAdditional', { city: city.name }));
        await repo.updateProfile(tx, userId, ctx.now(), {
          cityId: city.id,
          place: nullIfEmpty(body.place),
          landmark: nullIfEmpty(body.landmark),
        });
        return setHomeListing(tx, userId, city.id, ctx.now());
      }
    }
  });
  return getUpdateData(ctx, userId);
}

const ATTRIBUTE_COLUMNS = {
  ad_status: 'adStatus',
  comments: 'commentsEnabled',
  dominatrix: 'dominatrix',
} as const satisfies Record<Exclude<Attribute, 'show_age'>, keyof repo.ProfileRow>;

/**
 * POST /edit/setAttribute/{id}: one switch of the ad (ad status, comments, dominatrix listing, her age).
 * Showing her age copies the date of birth given at registration into `shown_birth_date` (the column the
 * profile and item 1's age filter read, docs/decisions/0321); hiding it clears the copy.
 */
export async function setAttribute(ctx: AppContext, actor: Actor, userId: number, body: SetAttributeBody) {
  assertMayEdit(actor, userId);
  if (body.attribute === 'show_age') {
    await edit(
      ctx,
      actor,
      userId,
      'profile.attribute.show_age',
      (tx, current) =>
        repo.updateProfile(tx, userId, ctx.now(), { shownBirthDate: body.value ? current.dateOfBirth : null }),
      false,
    );
    return getAttribute(ctx, userId, body.attribute);
  }
  await edit(ctx, actor, userId, `profile.attribute.${body.attribute}`, async (tx) => {
    const column = ATTRIBUTE_COLUMNS[body.attribute];
    await repo.updateProfile(tx, userId, ctx.now(), { [column]: body.value });
  });
  return getAttribute(ctx, userId, body.attribute);
}

export async function getAttribute(ctx: AppContext, userId: number, attribute: Attribute) {
  const { profile } = await mustLoad(ctx, userId);
  if (attribute === 'show_age') return { attribute, value: profile.shownBirthDate !== null };
  return { attribute, value: profile[ATTRIBUTE_COLUMNS[attribute]] };
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** GET /edit/getOverview/{id}/{days}: completeness, status, position, balance, verification, daily counts. */
export async function getOverview(ctx: AppContext, userId: number, days: number): Promise<Overview> {
  const current = await mustLoad(ctx, userId);
  const now = ctx.now();
  const today = new Date(`${isoDay(now)}T00:00:00Z`);
  const first = isoDay(new Date(today.getTime() - (days - 1) * DAY_MS));
  const [position, balance, rows] = await Promise.all([
    positionOf(ctx.db, userId, now),
    balanceOf(ctx, userId),
    repo.dailyStats(ctx.db, userId, first, isoDay(today)),
  ]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const stats = Array.from({ length: days }, (_, i) => {
    const day = isoDay(new Date(today.getTime() - (days - 1 - i) * DAY_MS));
    const row = byDay.get(day);
    return {
      day,
      impressions: Number(row?.impressions ?? 0),
      views: Number(row?.views ?? 0),
      phone_reveals: Number(row?.phone_reveals ?? 0),
    };
  });
  const sum = (k: 'impressions' | 'views' | 'phone_reveals') => stats.reduce((n, s) => n + s[k], 0);
  const data = presentProfile(current);
  return {
    user_id: userId,
    screen_name: data.screen_name,
    complete: data.complete,
    missing: data.missing,
    ad_status: data.ad_status,
    listed: data.listed,
    flagged: data.flagged,
    position,
    balance,
    currency: ctx.env.SITE_CURRENCY,
    verification: {
      status: current.profile.verificationStatus,
      verified_at: current.profile.verifiedAt ? current.profile.verifiedAt.toISOString() : null,
    },
    city: data.city,
    age: {
      years: ageOn(current.dateOfBirth, now),
      shown: data.show_age,
      checked: data.show_age && ageChecked(current.profile.verificationStatus),
    },
    available_until: availableUntil(current.profile.availableUntil, now),
    stats,
    totals: { impressions: sum('impressions'), views: sum('views'), phone_reveals: sum('phone_reveals') },
  };
}

/** "Available now" until (ISO) while it runs at `now`, else null (docs/decisions/0320). */
const availableUntil = (until: Date | null, now: Date) =>
  until && until.getTime() > now.getTime() ? until.toISOString() : null;

/**
 * POST /edit/setAvailableNow/{id}: "available now" from this moment for 1 to 8 hours (0: off now). It ends
 * by itself: the directory's versions hold the next end, so no cached answer shows it afterwards
 * (directory.version.ts). It changes no position: the ranking reads none of it.
 */
export async function setAvailableNow(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  body: AvailableNowBody,
): Promise<AvailableNowResponse['data']> {
  assertMayEdit(actor, userId);
  const now = ctx.now();
  const until = body.hours > 0 ? new Date(now.getTime() + body.hours * HOUR_MS) : null;
  // Nothing the directory derives reads it (complete, listed, search text): no re-derivation.
  await edit(
    ctx,
    actor,
    userId,
    'profile.availableNow',
    (tx) => repo.updateProfile(tx, userId, now, { availableUntil: until }),
    false,
  );
  return { available_until: availableUntil(until, now) };
}

/** GET /edit/findCities: the Location section's picker over the imported cities. */
export async function findCities(
  ctx: AppContext,
  query: { q: string; country?: string },
  lang: Language = 'en',
): Promise<CitiesResponse['data']> {
  const rows = await repo.findCities(
    ctx.db,
    query.q,
    slugify(query.q),
    query.country,
    CITY_RESULTS,
    nameLanguage(lang),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    country_code: r.country_code,
    country_name: r.country_name,
    country_slug: r.country_slug,
    population: Number(r.population),
  }));
}

/** GET /edit/getListings/{id}: /edit/directory/listing/{id}. */
export async function getListings(ctx: AppContext, userId: number): Promise<ListingsResponse['data']> {
  const { profile, accountStatus } = await mustLoad(ctx, userId);
  const now = ctx.now();
  const rows = await listingsOf(ctx.db, userId, now);
  return {
    listed: profile.listed && accountStatus === 'active',
    listings: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      city: {
        id: r.cityId,
        name: r.cityName,
        slug: r.citySlug,
        country_code: r.countryCode,
        country_name: r.countryName,
        country_slug: r.countrySlug,
      },
      tour_from: r.tourFrom,
      tour_until: r.tourUntil,
      expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
      paid_until: r.kind === 'additional' && r.paidUntil ? r.paidUntil.toISOString() : null,
      days_left: r.expiresAt ? daysLeft(r.expiresAt, now, r.timezone) : null,
      last_day: r.expiresAt ? lastPaidDay(r.expiresAt, r.timezone) : null,
      position: r.position,
    })),
  };
}

/** POST /edit/setTourDates/{id}: the tour dates of one running additional location. */
export async function setTourDates(ctx: AppContext, actor: Actor, userId: number, body: TourDatesBody) {
  assertMayEdit(actor, userId);
  const now = ctx.now();
  const listing = (await listingsOf(ctx.db, userId, now)).find((l) => l.id === body.listing_id);
  if (!listing || listing.kind !== 'additional' || !listing.expiresAt)
    throw ValidationError.field('listing_id', msg('edit.listingNotFound'));
  // The dates must lie within the location's paid days (checked with the listing's row, tour-dates.ts).
  await ctx.db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) throw notFound();
    const ok = await writeTourDates(tx, {
      profileId: userId,
      listingId: body.listing_id,
      from: body.from,
      until: body.until,
      now,
    });
    if (!ok) throw ValidationError.field('listing_id', msg('edit.listingNotFound'));
    await refreshCountryPrimary(tx, now, [userId]);
    if (actor.id !== userId)
      await writeAudit(tx, { actorId: actor.id, action: 'listing.tourDates', targetUserId: userId, at: now });
  });
  return getListings(ctx, userId);
}
