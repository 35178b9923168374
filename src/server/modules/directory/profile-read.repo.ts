// SQL of a profile page: the profile (listed or not: the service decides who sees it), her gallery, her
// tours, and the live figures a cached answer takes fresh (docs/decisions/0700, 0722).
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { accounts, countries, media } from '../../db/schema';
import { activeAt, avatarColumns, c, l, m, p } from './listing-rows.repo';

/** The profile query, prepared once per database and kind of key (built once, planned once per connection). */
const profileQueries = new WeakMap<Db, Record<'id' | 'name', ReturnType<typeof prepareProfile>>>();

/** A profile by id or by screen name (any case), unless its account is deleted; listed or not. */
export async function findProfile(db: Db, by: { id: number } | { name: string }) {
  let q = profileQueries.get(db);
  if (!q) {
    q = { id: prepareProfile(db, 'id'), name: prepareProfile(db, 'name') };
    profileQueries.set(db, q);
  }
  const [row] = 'id' in by ? await q.id.execute({ key: by.id }) : await q.name.execute({ key: by.name });
  return row ?? null;
}

function prepareProfile(db: Db, by: 'id' | 'name') {
  const co = countries;
  const key = sql.placeholder('key');
  return db
    .select({
      user_id: p.userId,
      screen_name: p.screenName,
      heading: p.heading,
      about: p.about,
      gender: p.gender,
      sexuality: p.sexuality,
      services: p.services,
      personality: p.personality,
      languages: p.languages,
      currency: p.currency,
      phone: p.phone,
      landmark: p.landmark,
      place: p.place,
      ad_status: p.adStatus,
      comments_enabled: p.commentsEnabled,
      dominatrix: p.dominatrix,
      links: p.links,
      availability: p.availability,
      rates: p.rates,
      listed: p.listed,
      verification_status: p.verificationStatus,
      verified_at: p.verifiedAt,
      available_until: p.availableUntil,
      shown_birth_date: p.shownBirthDate,
      views: p.views,
      last_seen_at: accounts.lastSeenAt,
      city_id: c.id,
      city_name: c.name,
      city_slug: c.slug,
      country_name: co.name,
      country_slug: co.slug,
      ...avatarColumns,
    })
    .from(p)
    .innerJoin(accounts, eq(accounts.id, p.userId))
    .leftJoin(c, eq(c.id, p.cityId))
    .leftJoin(co, eq(co.code, c.countryCode))
    .leftJoin(m, eq(m.id, p.avatarMediaId))
    .where(
      and(
        by === 'id' ? eq(p.userId, key) : sql`lower(${p.screenName}) = lower(${key})`,
        ne(accounts.status, 'deleted'),
      ),
    )
    .limit(1)
    .prepare(`directory_profile_by_${by}`);
}

export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;

/**
 * What a cached profile answer takes fresh on every read (docs/decisions/0700). Raw SQL on purpose: it
 * runs on every profile request, and the builder's select cost ~0.5 ms more per call (0915).
 */
export async function findProfileLive(db: Db, userId: number) {
  const [row] = await queryRows<{ views: number; last_seen_at: Date | string | null }>(
    db,
    sql`select p.views, a.last_seen_at from profiles p join accounts a on a.id = p.user_id where p.user_id = ${userId}`,
  );
  return row ?? null;
}

export async function findGallery(db: Db, userId: number) {
  return db
    .select({
      id: media.id,
      type: media.type,
      storage_key: media.storageKey,
      variants: media.variants,
      width: media.width,
      height: media.height,
      placeholder: media.placeholder,
    })
    .from(media)
    .where(and(eq(media.userId, userId), eq(media.status, 'approved'), inArray(media.type, ['gallery', 'video'])))
    .orderBy(media.type, media.position, media.id);
}

export type GalleryRow = Awaited<ReturnType<typeof findGallery>>[number];

export async function findTours(db: Db, userId: number, now: Date) {
  return db
    .select({
      city: c.name,
      from: l.tourFrom,
      until: l.tourUntil,
      // Still to come (issue 27 item 4): the profile marks it apart from a running one.
      coming: sql<boolean>`coalesce(${l.tourStartsAt} > ${now.toISOString()}::timestamptz, false)`,
    })
    .from(l)
    .innerJoin(c, eq(c.id, l.cityId))
    .where(and(eq(l.profileId, userId), eq(l.kind, 'additional'), activeAt(now)))
    .orderBy(asc(l.tourFrom), l.id);
}
