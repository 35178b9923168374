// SQL of /feed: the newest verified profiles, new photos and new tours of listed profiles.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { ListingRow } from './directory.repo';

const avatarColumns = sql`m.storage_key as avatar_key, m.variants as avatar_variants, m.width as avatar_width,
  m.height as avatar_height, m.placeholder as avatar_placeholder`;

/** A profile's home city (its home listing; a profile without one shows none). */
const homeCity = sql`left join listings hl on hl.profile_id = p.user_id and hl.kind = 'home'
  left join cities hc on hc.id = hl.city_id`;

export type FeedProfileRow = ListingRow & { at: string };

export async function newestVerified(db: Db, limit: number, offset: number) {
  return queryRows<FeedProfileRow>(
    db,
    sql`
    select p.user_id as listing_id, p.user_id, p.screen_name, p.heading, p.verification_status, 'home' as kind,
           null as tour_from, null as tour_until, hc.name as city, p.place, ${avatarColumns},
           p.verified_at as at
    from profiles p
    ${homeCity}
    left join media m on m.id = p.avatar_media_id
    where p.listed and p.verification_status = 'verified' and p.verified_at is not null
    order by p.verified_at desc, p.user_id desc
    limit ${limit} offset ${offset}`,
  );
}

export type FeedPhotoRow = FeedProfileRow & {
  photo_id: number;
  photo_key: string;
  photo_variants: Record<string, string>;
  photo_width: number | null;
  photo_height: number | null;
  photo_placeholder: string | null;
};

export async function newestPhotos(db: Db, limit: number, offset: number) {
  return queryRows<FeedPhotoRow>(
    db,
    sql`
    select g.id as listing_id, p.user_id, p.screen_name, p.heading, p.verification_status, 'home' as kind,
           null as tour_from, null as tour_until, hc.name as city, p.place, ${avatarColumns},
           g.id as photo_id, g.storage_key as photo_key, g.variants as photo_variants, g.width as photo_width,
           g.height as photo_height, g.placeholder as photo_placeholder, g.created_at as at
    from media g
    join profiles p on p.user_id = g.user_id
    ${homeCity}
    left join media m on m.id = p.avatar_media_id
    where g.type = 'gallery' and g.status = 'approved' and p.listed
    order by g.created_at desc, g.id desc
    limit ${limit} offset ${offset}`,
  );
}

/** Tours that have not ended, newest first (an additional listing is a tour, dated or not). */
export async function newestTours(db: Db, limit: number, offset: number) {
  return queryRows<FeedProfileRow>(
    db,
    sql`
    select l.id as listing_id, p.user_id, p.screen_name, p.heading, p.verification_status, l.kind,
           l.tour_from::text as tour_from, l.tour_until::text as tour_until, c.name as city, p.place,
           ${avatarColumns}, l.created_at as at
    from listings l
    join profiles p on p.user_id = l.profile_id
    join cities c on c.id = l.city_id
    left join media m on m.id = p.avatar_media_id
    where l.kind = 'additional' and p.listed and (l.expires_at is null or l.expires_at > now())
      and (l.tour_until is null or l.tour_until >= current_date)
    order by l.created_at desc, l.id desc
    limit ${limit} offset ${offset}`,
  );
}
