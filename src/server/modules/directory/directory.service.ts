import { sql } from 'drizzle-orm';
import { PAGE_SIZE, type Category } from '#shared/constants';
import type { DirectoryFilter, DirectoryPage, Navigation, Profile } from '#shared/schemas/directory';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import type { SessionUser } from '../../plugins/session';
import * as repo from './directory.repo';
import { presentItem, presentProfile } from './directory.presenter';

async function resolveScope(ctx: AppContext, filter: DirectoryFilter) {
  const country = await repo.findCountryBySlug(ctx.db, filter.country);
  if (!country) throw notFound('Unknown country.');
  const place = filter.place ? await repo.findCityBySlug(ctx.db, country.code, filter.place) : null;
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
  const [rows, total] = await Promise.all([
    repo.findListings(ctx.db, scope, PAGE_SIZE, offset),
    repo.countListings(ctx.db, scope),
  ]);
  return {
    data: rows.map((r, i) => presentItem(r, ctx.media, offset + i + 1)),
    page,
    has_more: offset + rows.length < total,
    total,
  };
}

export async function listCountries(ctx: AppContext) {
  return { data: await repo.countriesWithCounts(ctx.db) };
}

export async function getProfile(
  ctx: AppContext,
  by: { id: number } | { name: string },
  viewer: SessionUser | null,
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
  return presentProfile(row, { canEdit, gallery, tours, media: ctx.media, now: ctx.now() });
}
