// Rows never go out raw: these decide what the public sees of a profile.
import type { Profile, ProfileItem } from '#shared/schemas/directory.ts';
import type { MediaStore } from '../../lib/media-store';
import type { ListingRow, ProfileRow } from './directory.repo';

export function presentItem(row: ListingRow, media: MediaStore, position?: number): ProfileItem {
  return {
    id: row.user_id,
    name: row.screen_name,
    heading: row.heading,
    avatar: row.avatar_key ? media.publicUrl(row.avatar_key) : null,
    verified: row.verification_status === 'verified',
    on_tour: row.kind === 'additional',
    position,
    user: { city: row.city, place: row.place, profile: row.screen_name },
  };
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function presentProfile(
  row: ProfileRow,
  extra: {
    canEdit: boolean;
    gallery: Array<{ id: number; type: string; storage_key: string; variants: Record<string, string> }>;
    tours: Array<{ city: string; from: string | null; until: string | null }>;
    media: MediaStore;
    now: Date;
  },
): Profile {
  const { media } = extra;
  const name = row.screen_name ?? '';
  const photos = extra.gallery.filter((g) => g.type === 'gallery');
  const video = extra.gallery.find((g) => g.type === 'video');
  const lastSeen = row.last_seen_at
    ? Math.max(0, Math.round((extra.now.getTime() - new Date(row.last_seen_at).getTime()) / 1000))
    : null;
  return {
    user_id: row.user_id,
    title: row.heading ? `${name} - ${row.heading}` : name,
    can_edit: extra.canEdit,
    screen_name: name,
    heading: row.heading,
    about: row.about,
    gender: row.gender,
    sexuality: row.sexuality,
    services: row.services ?? [],
    personality: row.personality ?? [],
    languages: row.languages ?? [],
    currency: row.currency,
    phone: row.phone,
    landmark: row.landmark,
    city: row.city_id
      ? {
          id: row.city_id,
          name: row.city_name ?? '',
          slug: row.city_slug ?? '',
          country: row.country_name ?? '',
          country_slug: row.country_slug ?? '',
        }
      : null,
    place: row.place,
    tours: extra.tours,
    comments_enabled: row.comments_enabled,
    dominatrix: row.dominatrix,
    links: row.links ?? {},
    availability: row.availability ?? {},
    rates: { incall: row.rates?.incall ?? {}, outcall: row.rates?.outcall ?? {} },
    verified: row.verification_status === 'verified',
    verified_at: iso(row.verified_at),
    views: row.views,
    last_seen: lastSeen,
    avatar: row.avatar_key ? media.publicUrl(row.avatar_key) : null,
    gallery: photos.map((g) => ({
      id: g.id,
      url: media.publicUrl(g.variants.large ?? g.storage_key),
      thumb: media.publicUrl(g.variants.thumb ?? g.storage_key),
    })),
    video: video ? media.publicUrl(video.storage_key) : null,
  };
}
