// SQL of the sitemaps: listed profiles and the directory pages that have something to show at `now`
// (the app's clock, like the directory's lists).
import { and, asc, count, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cities, countries, listings, profiles } from '../../db/schema';

export async function listedProfileIds(db: Db, limit: number, offset: number) {
  const rows = await db
    .select({ user_id: profiles.userId, updatedAt: profiles.updatedAt })
    .from(profiles)
    .where(eq(profiles.listed, true))
    .orderBy(profiles.userId)
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ user_id: r.user_id, updated_at: r.updatedAt.toISOString() }));
}

export async function countListedProfiles(db: Db) {
  const [row] = await db.select({ n: count() }).from(profiles).where(eq(profiles.listed, true));
  return row.n;
}

/** Country and city directory pages that have something to show at `now`. */
export function directoryPages(db: Db, now: Date) {
  return db
    .selectDistinct({ country: countries.slug, city: cities.slug })
    .from(listings)
    .innerJoin(profiles, and(eq(profiles.userId, listings.profileId), eq(profiles.listed, true)))
    .innerJoin(countries, eq(countries.code, listings.countryCode))
    .innerJoin(cities, eq(cities.id, listings.cityId))
    .where(or(isNull(listings.expiresAt), gt(listings.expiresAt, now)))
    .orderBy(asc(countries.slug), asc(cities.slug));
}
