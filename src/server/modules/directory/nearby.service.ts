// The nearby list (docs/decisions/0325): the cities nearest a point, each in its directory order, walked
// by nearby-ranks.ts; the page's listings read in full. The SQL is nearby.repo.ts's.
import { PAGE_SIZE, type Language } from '#shared/constants.ts';
import type { z } from 'zod';
import { NEARBY_MAX_PAGE } from '#shared/schemas/directory.ts';
import type { NearbyBody } from '#shared/schemas/directory.ts';
import { hasFilters, normalizeFilters } from '#shared/rules/list-filters.ts';
import type { AppContext } from '../../context';
import { Gate } from '../../lib/gate';
import { perContext } from '../../lib/per-context';
import { TtlCache } from '../../lib/ttl-cache';
import { directoryVersion } from './directory.version';
import * as repo from './nearby.repo';
import { walkNearby } from './nearby-ranks';
import { presentItems } from './list-page.service';

/** Per app context: the cities with listings (keyed by the directory version), and a gate. */
const cachesOf = perContext((ctx) => ({
  nearbyCities: new TtlCache<repo.CityWithListings[]>(60_000),
  /** Nearby pages one at a time on PGlite (its queries run in this thread), a few on PostgreSQL. */
  nearbyGate: new Gate(ctx.dbKind === 'pglite' ? 1 : 4, 50),
}));

/** Great-circle distance in km (the same formula as the SQL of findNearby). */
function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number) {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 6371 * 2 * Math.asin(Math.sqrt(a));
}

export async function nearby(
  ctx: AppContext,
  body: z.infer<typeof NearbyBody>,
  page: number,
  v?: string,
  lang: Language = 'en',
) {
  const version = v ?? (await directoryVersion(ctx));
  const filters = hasFilters(body.filters) ? normalizeFilters(body.filters) : undefined;
  return cachesOf(ctx).nearbyGate.run(() => nearbyPage(ctx, { ...body, filters }, page, version, lang));
}

async function nearbyPage(ctx: AppContext, body: z.infer<typeof NearbyBody>, page: number, v: string, lang: Language) {
  const offset = (page - 1) * PAGE_SIZE;
  const want = offset + PAGE_SIZE + 1; // one row more than the page tells whether another exists
  // Inside one city every listing is equally far, so the list is the cities nearest first, each in its
  // directory order. Measuring every listing's distance in SQL cost 340 ms on 50,000 profiles. A profile
  // listed in several cities shows at the nearest. The page limit (NEARBY_MAX_PAGE) bounds `want`; the
  // walk reads the cities' rank index in short queries and keeps what it read under the version
  // (nearby-ranks.ts, docs/decisions/0325).
  const cities = (
    await cachesOf(ctx).nearbyCities.get(`${v}|${body.category}`, () => repo.citiesWithListings(ctx.db, body.category))
  )
    .map((c) => ({ city_id: c.city_id, listings: c.listings, km: distanceKm(body.lat, body.lng, c.lat, c.lng) }))
    .sort((a, b) => a.km - b.km);
  const ranked = await walkNearby(
    ctx,
    { version: v, category: body.category, filters: body.filters, now: ctx.now() },
    cities,
    want,
  );
  // Only the page's own rows are read in full.
  const onPage = ranked.slice(offset, offset + PAGE_SIZE);
  const distance = new Map(onPage.map((r) => [r.listing_id, r.km]));
  const rows = await repo.findListingsByIds(
    ctx.db,
    onPage.map((r) => r.listing_id),
    ctx.now(),
  );
  const items = await presentItems(ctx, rows, lang);
  const data = rows.map((row, i) => ({
    ...items[i],
    distance_km: Math.round((distance.get(row.listing_id) ?? 0) * 10) / 10,
  }));
  return {
    data,
    page,
    has_more: ranked.length > offset + PAGE_SIZE && page < NEARBY_MAX_PAGE,
    total: Math.min(ranked.length, offset + data.length),
  };
}
