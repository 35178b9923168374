// The edit screens' answers (src/shared/schemas/profile-edit.ts) from the rows of profile-edit.repo.ts:
// rows in, answers out, nothing read or decided here.
import type { CityRef, UpdateData } from '#shared/schemas/profile-edit.ts';
import { missingFields } from './profile-derive';
import type * as repo from './profile-edit.repo';

function cityRef(city: repo.CityRow): CityRef {
  return {
    id: city.id,
    name: city.name,
    slug: city.slug,
    country_code: city.countryCode,
    country_name: city.countryName,
    country_slug: city.countrySlug,
  };
}

export function presentProfile({ profile, city, accountStatus }: repo.EditableProfile): UpdateData {
  const hasAvatar = profile.avatarMediaId !== null;
  return {
    user_id: profile.userId,
    screen_name: profile.screenName,
    heading: profile.heading,
    about: profile.about,
    gender: profile.gender,
    sexuality: profile.sexuality,
    services: profile.services,
    personality: profile.personality,
    languages: profile.languages,
    currency: profile.currency,
    phone: profile.phone,
    city: city ? cityRef(city) : null,
    place: profile.place,
    landmark: profile.landmark,
    ad_status: profile.adStatus,
    comments: profile.commentsEnabled,
    dominatrix: profile.dominatrix,
    links: profile.links as UpdateData['links'],
    availability: profile.availability,
    rates: { incall: profile.rates.incall ?? {}, outcall: profile.rates.outcall ?? {} },
    has_avatar: hasAvatar,
    complete: profile.complete,
    listed: profile.listed && accountStatus === 'active',
    flagged: profile.flagged,
    missing: missingFields(profile, hasAvatar),
    verification: profile.verificationStatus,
    show_age: profile.shownBirthDate !== null,
  };
}
