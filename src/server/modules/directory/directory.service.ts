import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { notification } from '#shared/api/errors.ts';
import { PAGE_SIZE, URGENT_FEEDBACK_REASONS, type Category } from '#shared/constants.ts';
import type { z } from 'zod';
import type {
  DirectoryFilter,
  DirectoryPage,
  FeedbackBody,
  Navigation,
  NearbyBody,
  Profile,
} from '#shared/schemas/directory.ts';
import { foldText } from '../profiles/profile-derive';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/errors';
import type { SessionUser } from '../../plugins/session';
import { TtlCache } from '../../lib/ttl-cache';
import * as repo from './directory.repo';
import { presentItem, presentProfile } from './directory.presenter';

// Counts and navigation may be a minute old; lists are always fresh. One set of caches per app context.
interface Caches {
  counts: TtlCache<number>;
  navigation: TtlCache<Navigation>;
  flags: TtlCache<boolean>;
  corrections: TtlCache<string[][]>;
  nearbyCities: TtlCache<repo.CityWithListings[]>;
  countries: TtlCache<{ code: string; slug: string; name: string } | null>;
  cities: TtlCache<{ id: number; slug: string; name: string } | null>;
}
const caches = new WeakMap<AppContext, Caches>();
function cachesOf(ctx: AppContext): Caches {
  let c = caches.get(ctx);
  if (!c) {
    c = {
      counts: new TtlCache(60_000),
      navigation: new TtlCache(60_000, 2000),
      flags: new TtlCache(60_000),
      corrections: new TtlCache(600_000),
      nearbyCities: new TtlCache(60_000),
      countries: new TtlCache(600_000, 1000),
      cities: new TtlCache(600_000, 20_000),
    };
    caches.set(ctx, c);
  }
  return c;
}

/** Periodic task (and after bulk changes such as the seed): the word list behind typo tolerance. */
export const refreshSearchWords = (db: Db) => repo.refreshSearchWords(db);
export function clearDirectoryCaches(ctx: AppContext) {
  caches.delete(ctx);
}

async function resolveScope(ctx: AppContext, filter: DirectoryFilter) {
  // Countries and cities change only with a new import: their slugs are looked up once in a while.
  const { countries, cities } = cachesOf(ctx);
  const country = await countries.get(filter.country, () => repo.findCountryBySlug(ctx.db, filter.country));
  if (!country) throw notFound('Unknown country.');
  const placeSlug = filter.place;
  const place = placeSlug
    ? await cities.get(`${country.code}|${placeSlug}`, () => repo.findCityBySlug(ctx.db, country.code, placeSlug))
    : null;
  if (filter.place && !place) throw notFound('Unknown place.');
  return { country, place };
}

const CATEGORY_TITLES: Record<Category, string> = {
  escorts: 'Escorts',
  female: 'Female Escorts',
  male: 'Male Escorts',
  trans: 'TS/TV Escorts',
  dom: 'Domination',
};

export async function getNavigation(ctx: AppContext, filter: DirectoryFilter): Promise<Navigation> {
  const key = `${filter.category}|${filter.country}|${filter.place ?? ''}`;
  return cachesOf(ctx).navigation.get(key, () => loadNavigation(ctx, filter));
}

async function loadNavigation(ctx: AppContext, filter: DirectoryFilter): Promise<Navigation> {
  const { country, place } = await resolveScope(ctx, filter);
  const [places, counts] = await Promise.all([
    repo.placesWithCounts(ctx.db, country.code, filter.category),
    repo.categoryCounts(ctx.db, country.code, place?.id),
  ]);
  return {
    category: filter.category,
    country,
    place,
    places,
    counts,
    title: `${CATEGORY_TITLES[filter.category]} in ${place ? `${place.name}, ` : ''}${country.name}`,
  };
}

export async function getDirectory(ctx: AppContext, filter: DirectoryFilter, page: number): Promise<DirectoryPage> {
  const { country, place } = await resolveScope(ctx, filter);
  const scope = { countryCode: country.code, cityId: place?.id, category: filter.category };
  const offset = (page - 1) * PAGE_SIZE;
  const key = `${scope.category}|${scope.countryCode}|${scope.cityId ?? ''}`;
  // One row beyond the page says whether there is another, whatever the (cached) total says.
  const [rows, total] = await Promise.all([
    repo.findListings(ctx.db, scope, PAGE_SIZE + 1, offset),
    cachesOf(ctx).counts.get(key, () => repo.countListings(ctx.db, scope)),
  ]);
  const data = rows.slice(0, PAGE_SIZE).map((r, i) => presentItem(r, ctx.media, offset + i + 1));
  return { data, page, has_more: rows.length > PAGE_SIZE, total: Math.max(total, offset + data.length) };
}

export async function listCountries(ctx: AppContext) {
  return { data: await repo.countriesWithCounts(ctx.db) };
}

export async function getProfile(
  ctx: AppContext,
  by: { id: number } | { name: string },
  viewer: SessionUser | null,
  opts: { countView?: boolean } = {},
): Promise<Profile> {
  const where = 'id' in by ? sql`p.user_id = ${by.id}` : sql`lower(p.screen_name) = lower(${by.name})`;
  const row = await repo.findProfile(ctx.db, where);
  const canEdit = !!row && !!viewer && (viewer.id === row.user_id || viewer.role === 'admin');
  // Unlisted profiles (hidden, flagged, incomplete) exist only for their owner and admins.
  if (!row || (!row.listed && !canEdit)) throw notFound('Profile not found.');
  const [gallery, tours] = await Promise.all([
    repo.findGallery(ctx.db, row.user_id),
    repo.findTours(ctx.db, row.user_id),
  ]);
  // Views count visitors, not the owner looking at her own ad.
  if (!canEdit && opts.countView !== false) {
    await repo.incrementProfileViews(ctx.db, row.user_id);
    await repo.bumpDailyStat(ctx.db, 'views', [row.user_id], today(ctx));
  }
  return presentProfile(row, { canEdit, gallery, tours, media: ctx.media, now: ctx.now() });
}

const today = (ctx: AppContext) => ctx.now().toISOString().slice(0, 10);

export async function search(ctx: AppContext, q: string, page: number): Promise<DirectoryPage> {
  const terms = repo.searchTerms(foldText(q));
  const offset = (page - 1) * PAGE_SIZE;
  if (!terms.length) return { data: [], page, has_more: false, total: 0 };
  // Exact matches first; only a query that matches nothing exactly falls back to typo tolerance:
  // each word is replaced by the nearest real words of the directory ("lodnon" -> "london").
  const key = terms.join(' ');
  const exact = terms.map((t) => [t]);
  const groups = (await cachesOf(ctx).flags.get(key, () => repo.hasMatch(ctx.db, exact)))
    ? exact
    : await cachesOf(ctx).corrections.get(key, () => repo.correctTerms(ctx.db, terms));
  const rows = groups.every((g) => g.length) ? await repo.searchByWords(ctx.db, groups, PAGE_SIZE + 1, offset) : [];
  const data = rows.slice(0, PAGE_SIZE).map((r) => presentItem(r, ctx.media));
  const hasMore = rows.length > PAGE_SIZE;
  // Counting every match of a common word costs more than the page itself: `total` is exact on the
  // last page and a lower bound before it.
  return { data, page, has_more: hasMore, total: offset + data.length + (hasMore ? 1 : 0) };
}

/** Great-circle distance in km (the same formula as the SQL of findNearby). */
function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number) {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 6371 * 2 * Math.asin(Math.sqrt(a));
}

export async function nearby(ctx: AppContext, body: z.infer<typeof NearbyBody>, page: number) {
  const offset = (page - 1) * PAGE_SIZE;
  const want = offset + PAGE_SIZE + 1; // one row more than the page tells whether another exists
  // Inside one city every listing is equally far, so the list is the cities nearest first, each in its
  // directory order (the city rank index answers that in a few ms). Measuring every listing's distance
  // in SQL cost 340 ms on 50,000 profiles. A profile listed in several cities shows at the nearest.
  const cities = (
    await cachesOf(ctx).nearbyCities.get(body.category, () => repo.citiesWithListings(ctx.db, body.category))
  )
    .map((c) => ({ ...c, km: distanceKm(body.lat, body.lng, c.lat, c.lng) }))
    .sort((a, b) => a.km - b.km);
  const seen = new Set<number>();
  const rows: Array<{ row: repo.ListingRow; km: number }> = [];
  for (const city of cities) {
    const scope = { countryCode: city.country_code, cityId: city.city_id, category: body.category };
    for (let cityOffset = 0; rows.length < want;) {
      const batch = Math.min(200, want - rows.length + 20);
      const found = await repo.findListings(ctx.db, scope, batch, cityOffset);
      for (const row of found) {
        if (seen.has(row.user_id)) continue;
        seen.add(row.user_id);
        rows.push({ row, km: city.km });
      }
      cityOffset += found.length;
      if (found.length < batch) break;
    }
    if (rows.length >= want) break;
  }
  const data = rows
    .slice(offset, offset + PAGE_SIZE)
    .map(({ row, km }) => ({ ...presentItem(row, ctx.media), distance_km: Math.round(km * 10) / 10 }));
  return { data, page, has_more: rows.length > offset + PAGE_SIZE, total: Math.min(rows.length, offset + data.length) };
}

/** Impressions: page address -> ids seen there. Each id counts once per flush. */
export async function recordImpressions(ctx: AppContext, impressions: Record<string, number[]>) {
  const ids = [...new Set(Object.values(impressions).flat())].slice(0, 1000);
  const counted = await repo.bumpDailyStat(ctx.db, 'impressions', ids, today(ctx));
  return { counted };
}

export async function recordPhoneReveal(ctx: AppContext, profileId: number) {
  const counted = await repo.bumpDailyStat(ctx.db, 'phone_reveals', [profileId], today(ctx));
  if (!counted) throw notFound('Profile not found.');
  return { ok: true };
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
  });
  if (!id) throw notFound('Profile not found.');
  return notification(urgent ? 'Thank you. Our team reviews safety reports first.' : 'Thank you for your feedback.', {
    icon: 'success',
  });
}
