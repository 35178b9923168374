// Rows never go out raw: these decide what the public sees of a profile.
import { shownAge } from '#shared/rules/shown-age.ts';
import { itemLocation } from '#shared/rules/listing-item.ts';
import type { Profile, ProfileItem } from '#shared/schemas/directory.ts';
import type { Picture } from '#shared/schemas/media.ts';
import type { Language } from '#shared/constants.ts';
import { countryName } from '#shared/views/format.ts';
import type { MediaStore } from '../../lib/media-store';
import { pictureOf } from '../media/media.service';
import type { GalleryRow, ProfileRow } from './profile-read.repo';
import type { ListingRow } from './listing-rows.repo';
import { formatPhone } from '#shared/rules/phone.ts';

type AvatarColumns = Pick<
  ListingRow,
  'avatar_key' | 'avatar_variants' | 'avatar_width' | 'avatar_height' | 'avatar_placeholder'
>;

function avatarPicture(row: AvatarColumns, media: MediaStore): Picture | null {
  if (!row.avatar_key) return null;
  return pictureOf(
    {
      storageKey: row.avatar_key,
      variants: row.avatar_variants ?? {},
      width: row.avatar_width,
      height: row.avatar_height,
      placeholder: row.avatar_placeholder,
    },
    (key) => media.publicUrl(key),
  );
}

/** "Available now" runs at `now` (docs/decisions/0320): its end is a moment of the directory's versions. */
const availableAt = (until: Date | string | null | undefined, now: Date) =>
  until ? new Date(until).getTime() > now.getTime() : false;

const galleryPicture = (g: GalleryRow, media: MediaStore) =>
  pictureOf(
    { storageKey: g.storage_key, variants: g.variants, width: g.width, height: g.height, placeholder: g.placeholder },
    (key) => media.publicUrl(key),
  );

/** `now`: the app's clock (a tour's state). `cityName`: the city's name in the reader's language (geo/city-names.ts), when it differs from English. */
export function presentItem(
  row: ListingRow,
  media: MediaStore,
  now: Date,
  position?: number,
  cityName?: string,
): ProfileItem {
  const { on_tour, tour, city, place } = itemLocation({ ...row, city: cityName ?? row.city }, now);
  return {
    id: row.user_id,
    name: row.screen_name ?? '',
    heading: row.heading,
    avatar: avatarPicture(row, media),
    verified: row.verification_status === 'verified',
    available_now: availableAt(row.available_until, now),
    on_tour,
    tour,
    position,
    user: { city, place, profile: row.screen_name },
  };
}

/** Seconds since the owner was last seen (null: never). */
export const lastSeenSeconds = (at: Date | string | null, now: Date) =>
  at ? Math.max(0, Math.round((now.getTime() - new Date(at).getTime()) / 1000)) : null;

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function presentProfile(
  row: ProfileRow,
  extra: {
    canEdit: boolean;
    gallery: GalleryRow[];
    tours: Array<{ city: string; from: string | null; until: string | null; coming: boolean }>;
    media: MediaStore;
    now: Date;
  },
): Profile {
  const { media } = extra;
  const name = row.screen_name ?? '';
  const photos = extra.gallery.filter((g) => g.type === 'gallery');
  const video = extra.gallery.find((g) => g.type === 'video');
  const lastSeen = lastSeenSeconds(row.last_seen_at, extra.now);
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
    // Kept as E.164; shown grouped as its country writes it (0311). The tel: link strips the spaces again.
    phone: row.phone && formatPhone(row.phone),
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
    available_until: availableAt(row.available_until, extra.now) ? iso(row.available_until) : null,
    age: shownAge(row.shown_birth_date, row.verification_status, extra.now),
    views: row.views,
    last_seen: lastSeen,
    avatar: avatarPicture(row, media),
    gallery: photos.map((g) => ({ id: g.id, url: media.publicUrl(g.storage_key), picture: galleryPicture(g, media) })),
    video: video ? media.publicUrl(video.storage_key) : null,
    poster: video && Object.keys(video.variants).length ? galleryPicture(video, media).src : null,
  };
}

/**
 * A profile in the reader's language (docs/decisions/0604): its city's name where GeoNames has one, its
 * tours' cities likewise (`tourNames`: English name -> name), its country as Intl names it (the SPA's
 * country list does the same). English, or an unknown country code, leaves the stored English names.
 */
export function localizeProfile(
  profile: Profile,
  lang: Language,
  names: { cityName?: string | null; countryCode?: string; tourNames?: Map<string, string> },
): Profile {
  if (lang === 'en') return profile;
  const city = profile.city && {
    ...profile.city,
    name: names.cityName ?? profile.city.name,
    country: names.countryCode ? countryName(names.countryCode, profile.city.country, lang) : profile.city.country,
  };
  const tours = profile.tours.map((t) => ({ ...t, city: names.tourNames?.get(t.city) ?? t.city }));
  return { ...profile, city, tours };
}
