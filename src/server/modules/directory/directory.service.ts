import crypto from 'node:crypto';
import { notification } from '#shared/api/errors.ts';
import { PAGE_SIZE, URGENT_FEEDBACK_REASONS, type Category, type Language } from '#shared/constants.ts';
import type { z } from 'zod';
import { LIST_MAX_PAGE, TOURS_AHEAD_DAYS } from '#shared/schemas/directory.ts';
import { filterKey, hasFilters, normalizeFilters } from '#shared/rules/list-filters.ts';
import type {
  ListFilters,
  DirectoryFilter,
  DirectoryPage,
  FeedbackBody,
  Navigation,
  Profile,
  ToursAhead,
} from '#shared/schemas/directory.ts';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { notFound } from '../../lib/errors';
import * as policy from '../../policies';
import type { SessionUser } from '../../plugins/session';
import { perContext } from '../../lib/per-context';
import { TtlCache } from '../../lib/ttl-cache';
import { countsToday, type Visitor } from '../../lib/visitor-count';
import { directoryVersion, placesVersion } from './directory.version';
import * as repo from './directory.repo';
import * as lists from './lists.repo';
import { findGallery, findProfile, findTours } from './profile-read.repo';
import { COUNTED_TOTAL, pageTotal, presentItems } from './list-page.service';
import { localizeProfile, presentProfile } from './directory.presenter';
import { nameLanguage, namesInCountry, namesOfCities, namesOfProfileCities } from '../geo/city-names';
import { msg } from '#shared/api/messages.ts';

// Every key starts with the directory version (directory.cache.ts, docs/decisions/0700): nothing here is
// ever older than the last write; the expiry only bounds the memory. One set of caches per app context.
const cachesOf = perContext(() => ({
  counts: new TtlCache<number>(60_000),
  navigation: new TtlCache<Navigation>(60_000, 2000),
  countries: new TtlCache<{ code: string; slug: string; name: string } | null>(600_000, 1000),
  cities: new TtlCache<{ id: number; slug: string; name: string } | null>(600_000, 20_000),
}));

// The search lives in search.service.ts, nearby in nearby.service.ts (docs/decisions/0760). These names
// stay reachable from here for their callers outside the module (seo, the seed, the periodic tasks) and
// for this module's tests.
export { mergesPostings, rebuildSearchWords, refreshSearchWords, search, searchReadsMatches } from './search.service';

async function resolveScope(ctx: AppContext, filter: DirectoryFilter, v: string) {
  const { countries, cities } = cachesOf(ctx);
  const places = placesVersion(v);
  const country = await countries.get(`${places}|${filter.country}`, () =>
    lists.findCountryBySlug(ctx.db, filter.country),
  );
  if (!country) throw notFound(msg('directory.unknownCountry'));
  const placeSlug = filter.place;
  const place = placeSlug
    ? await cities.get(`${places}|${country.code}|${placeSlug}`, () =>
        lists.findCityBySlug(ctx.db, country.code, placeSlug),
      )
    : null;
  if (filter.place && !place) throw notFound(msg('directory.unknownPlace'));
  return { country, place };
}

const CATEGORY_TITLES: Record<Category, string> = {
  escorts: 'Escorts',
  female: 'Female Escorts',
  male: 'Male Escorts',
  trans: 'TS/TV Escorts',
  dom: 'Domination',
};

/**
 * `v`: the directory version the answer is made for (read now when not given); `lang`: the reader's,
 * for the cities' names (slugs stay English).
 */
export async function getNavigation(
  ctx: AppContext,
  filter: DirectoryFilter,
  v?: string,
  lang: Language = 'en',
): Promise<Navigation> {
  v ??= await directoryVersion(ctx);
  const nl = nameLanguage(lang);
  const key = `${v}|${filter.category}|${filter.country}|${filter.place ?? ''}|${nl ?? ''}`;
  return cachesOf(ctx).navigation.get(key, () => loadNavigation(ctx, filter, v, lang));
}

async function loadNavigation(
  ctx: AppContext,
  filter: DirectoryFilter,
  v: string,
  lang: Language,
): Promise<Navigation> {
  const { country, place: found } = await resolveScope(ctx, filter, v);
  const nl = nameLanguage(lang);
  const [rows, counts, names] = await Promise.all([
    lists.placesWithCounts(ctx.db, country.code, filter.category, ctx.now()),
    lists.categoryCounts(ctx.db, country.code, found?.id, ctx.now()),
    nl ? namesInCountry(ctx.db, country.code, nl) : null,
  ]);
  const places = names ? rows.map((p) => ({ ...p, name: names.get(p.slug) ?? p.name })) : rows;
  const place = found && names ? { ...found, name: names.get(found.slug) ?? found.name } : found;
  return {
    category: filter.category,
    country,
    place,
    places,
    counts,
    title: `${CATEGORY_TITLES[filter.category]} in ${place ? `${place.name}, ` : ''}${country.name}`,
  };
}

export async function getDirectory(
  ctx: AppContext,
  filter: DirectoryFilter & { filters?: ListFilters },
  page: number,
  v?: string,
  lang: Language = 'en',
): Promise<DirectoryPage> {
  v ??= await directoryVersion(ctx);
  const { country, place } = await resolveScope(ctx, filter, v);
  const filters = hasFilters(filter.filters) ? normalizeFilters(filter.filters) : undefined;
  const scope = { countryCode: country.code, cityId: place?.id, category: filter.category, now: ctx.now(), filters };
  const offset = (page - 1) * PAGE_SIZE;
  // One row beyond the page says whether there is another; the total is the count the database keeps
  // with the writes (docs/decisions/0730), less the few expired rows still present. A filtered list is
  // counted as its pages read it, up to COUNTED_TOTAL_PAGES pages ("more than" past them, 0735), once per
  // version and filter (0324).
  const [rows, total] = await Promise.all([
    lists.findListings(ctx.db, scope, PAGE_SIZE + 1, offset),
    filters
      ? cachesOf(ctx).counts.get(
          `${v}|list|${country.code}|${place?.id ?? 0}|${filter.category}|${filterKey(filters)}|${scope.now.toISOString().slice(0, 10)}`,
          () => lists.countFilteredListings(ctx.db, scope, COUNTED_TOTAL + 1),
        )
      : lists.countListings(ctx.db, scope),
  ]);
  const data = await presentItems(ctx, rows.slice(0, PAGE_SIZE), lang, offset + 1);
  const hasMore = rows.length > PAGE_SIZE && page < LIST_MAX_PAGE;
  return { data, page, has_more: hasMore, ...pageTotal(filters ? total : undefined, total, offset + data.length) };
}

/** At most this many coming visitors on a city page. */
const TOURS_AHEAD_MAX = 60;

/** The first instant of the UTC day `days` after the day of `at`. */
export const dayAfter = (at: Date, days: number) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + days));

/**
 * Who visits a city soon (issue 27 item 4, docs/decisions/0323): her tour there starts after now and
 * before the end of the 14th day after today (UTC days, so one answer holds for a whole day: the cache key
 * carries the day, and a tour's start turns the city's version, 0403).
 */
export async function getToursAhead(
  ctx: AppContext,
  filter: DirectoryFilter & { place: string },
  v?: string,
  lang: Language = 'en',
): Promise<ToursAhead> {
  v ??= await directoryVersion(ctx);
  const { country, place } = await resolveScope(ctx, filter, v);
  const now = ctx.now();
  const rows = await lists.findToursAhead(
    ctx.db,
    { countryCode: country.code, cityId: place!.id, category: filter.category, now },
    dayAfter(now, TOURS_AHEAD_DAYS + 1),
    TOURS_AHEAD_MAX,
  );
  return { data: await presentItems(ctx, rows, lang), days: TOURS_AHEAD_DAYS };
}

export async function listCountries(ctx: AppContext, category: Category = 'escorts') {
  return { data: await lists.countriesWithCounts(ctx.db, category, ctx.now()) };
}

export async function getProfile(
  ctx: AppContext,
  by: { id: number } | { name: string },
  viewer: SessionUser | null,
  /** A view is counted once per visitor and day (0808), and only when the route names the visitor. */
  opts: { countView?: boolean; visitor?: Visitor; lang?: Language } = {},
): Promise<Profile> {
  const row = await findProfile(ctx.db, by);
  const canEdit = !!row && policy.can(viewer, 'update', policy.profile(row.user_id));
  // Unlisted profiles (hidden, flagged, incomplete) exist only for their owner and admins.
  if (!row || (!row.listed && !canEdit)) throw notFound(msg('directory.profileNotFound'));
  const [gallery, tours] = await Promise.all([
    findGallery(ctx.db, row.user_id),
    findTours(ctx.db, row.user_id, ctx.now()),
  ]);
  // Views count visitors, not the owner looking at her own ad.
  if (!canEdit && opts.countView !== false && opts.visitor) await countProfileView(ctx, row.user_id, opts.visitor);
  const profile = presentProfile(row, { canEdit, gallery, tours, media: ctx.media, now: ctx.now() });
  const lang = opts.lang ?? 'en';
  const nl = nameLanguage(lang);
  if (!nl) return profile;
  // The city and its country in the reader's language (0604), the tours' cities likewise.
  const [cities, tourNames] = await Promise.all([
    namesOfCities(ctx.db, row.city_id ? [row.city_id] : [], nl),
    tours.length ? namesOfProfileCities(ctx.db, row.user_id, nl) : undefined,
  ]);
  const city = row.city_id ? cities.get(Number(row.city_id)) : undefined;
  return localizeProfile(profile, lang, { cityName: city?.name, countryCode: city?.countryCode, tourNames });
}

/** A visitor opened the profile (also when the answer came from the cache): once per visitor and day (0808). */
export async function countProfileView(ctx: AppContext, userId: number, visitor: Visitor) {
  if (!(await countsToday(ctx, 'view', userId, visitor, today(ctx)))) return;
  await repo.incrementProfileViews(ctx.db, userId);
  await repo.bumpDailyStat(ctx.db, 'views', [userId], today(ctx));
}

const today = (ctx: AppContext) => ctx.now().toISOString().slice(0, 10);

/** Impressions: page address -> ids seen there. Each id counts once per flush. */
export async function recordImpressions(ctx: AppContext, impressions: Record<string, number[]>) {
  const ids = [...new Set(Object.values(impressions).flat())].slice(0, 1000);
  const counted = await repo.bumpDailyStat(ctx.db, 'impressions', ids, today(ctx));
  return { counted };
}

/** Counted once per visitor, profile and day (0808); a repeat is answered alike and counts nothing. */
export async function recordPhoneReveal(ctx: AppContext, profileId: number, visitor: Visitor) {
  if (!(await repo.isListedProfile(ctx.db, profileId))) throw notFound(msg('directory.profileNotFound'));
  const day = today(ctx);
  if (await countsToday(ctx, 'reveal', profileId, visitor, day)) {
    await repo.bumpDailyStat(ctx.db, 'phone_reveals', [profileId], day);
  }
  return { ok: true };
}

/**
 * A Get Help message joins the admins' feedback queue (reason `help`, no profile), in the caller's
 * transaction so that its mail job exists only if it does. Returns its id.
 */
export async function storeHelpMessage(
  ctx: AppContext,
  tx: Tx,
  data: { message: string; contact: string; ip: string },
): Promise<number> {
  const id = await repo.insertFeedback(tx, {
    profileId: null,
    reason: 'help',
    message: data.message,
    contact: data.contact,
    priority: 0,
    reporterHash: crypto.createHmac('sha256', ctx.secret).update(data.ip).digest('hex').slice(0, 32),
    createdAt: ctx.now(),
  });
  return id!;
}

export async function submitFeedback(ctx: AppContext, data: z.infer<typeof FeedbackBody>['data'], ip: string) {
  const urgent = (URGENT_FEEDBACK_REASONS as readonly string[]).includes(data.reason);
  const id = await repo.insertFeedback(ctx.db, {
    profileId: data.profile_id ?? null,
    reason: data.reason,
    message: data.message || null,
    contact: data.contact || null,
    priority: urgent ? 10 : 0,
    // Enough to spot one address flooding the queue, without keeping the address itself.
    reporterHash: crypto.createHmac('sha256', ctx.secret).update(ip).digest('hex').slice(0, 32),
    // The app's clock: the admin queue orders by age, and tests move that clock.
    createdAt: ctx.now(),
  });
  if (!id) throw notFound(msg('directory.profileNotFound'));
  return notification(urgent ? msg('directory.safetyThanks') : msg('directory.feedbackThanks'), {
    icon: 'success',
  });
}
