// SQL of /feed: the newest verified profiles, new photos and new tours of listed profiles. Tours are
// current by the app's clock (`now`, ctx.now()), like every list of the directory.
import { and, desc, eq, gte, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { cities, countries, listings, media } from '../../db/schema';
import { activeAt, itemProfileColumns, l, m, p, selectListings } from './listing-rows.repo';

/** A profile's home city (its home listing; a profile without one shows none). */
const hl = alias(listings, 'hl');
const hc = alias(cities, 'hc');
/** A gallery picture (the avatar is `m`). */
const g = alias(media, 'g');

/** A feed item that stands for the profile itself: at home, no tour. */
const profileItemColumns = {
  kind: sql<'home'>`'home'`,
  tour_from: sql<string | null>`null`,
  tour_until: sql<string | null>`null`,
  tour_starts_at: sql<Date | null>`null`,
  city: hc.name,
  ...itemProfileColumns,
};

export async function newestVerified(db: Db, limit: number, offset: number) {
  return db
    .select({
      listing_id: p.userId,
      ...profileItemColumns,
      // Never null here (the where clause); typed so.
      at: sql<Date>`${p.verifiedAt}`.mapWith(p.verifiedAt),
    })
    .from(p)
    .leftJoin(hl, and(eq(hl.profileId, p.userId), eq(hl.kind, 'home')))
    .leftJoin(hc, eq(hc.id, hl.cityId))
    .leftJoin(m, eq(m.id, p.avatarMediaId))
    .where(and(eq(p.listed, true), eq(p.verificationStatus, 'verified'), isNotNull(p.verifiedAt)))
    .orderBy(desc(p.verifiedAt), desc(p.userId))
    .limit(limit)
    .offset(offset);
}

export async function newestPhotos(db: Db, limit: number, offset: number) {
  return db
    .select({
      listing_id: g.id,
      ...profileItemColumns,
      photo_id: g.id,
      photo_key: g.storageKey,
      photo_variants: g.variants,
      photo_width: g.width,
      photo_height: g.height,
      photo_placeholder: g.placeholder,
      at: g.createdAt,
    })
    .from(g)
    .innerJoin(p, eq(p.userId, g.userId))
    .leftJoin(hl, and(eq(hl.profileId, p.userId), eq(hl.kind, 'home')))
    .leftJoin(hc, eq(hc.id, hl.cityId))
    .leftJoin(m, eq(m.id, p.avatarMediaId))
    .where(and(eq(g.type, 'gallery'), eq(g.status, 'approved'), eq(p.listed, true)))
    .orderBy(desc(g.createdAt), desc(g.id))
    .limit(limit)
    .offset(offset);
}

/** Tours that have not ended at `now`, newest first (an additional listing is a tour, dated or not). */
export async function newestTours(db: Db, limit: number, offset: number, now: Date) {
  const today = now.toISOString().slice(0, 10);
  // The city page's address (English slugs, as every address): the entry links to its coming visitors.
  const placeSlugs = {
    at: l.createdAt,
    city_slug: sql<string>`(select ${cities.slug} from ${cities} where ${cities.id} = ${l.cityId})`,
    country_slug: sql<string>`(select ${countries.slug} from ${countries} where ${countries.code} = ${l.countryCode})`,
  };
  return selectListings(db, placeSlugs)
    .where(
      and(
        eq(l.kind, 'additional'),
        eq(p.listed, true),
        activeAt(now),
        or(isNull(l.tourUntil), gte(l.tourUntil, today)),
      ),
    )
    .orderBy(desc(l.createdAt), desc(l.id))
    .limit(limit)
    .offset(offset);
}
