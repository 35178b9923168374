// Calls of the public directory (spec section 7, "App and directory").
import { z } from 'zod';
import { id, text, withoutControlCharacters } from '../api/fields';
import { CATEGORIES, FEEDBACK_REASONS, SEARCH_MIN_CHARS, SERVICES, SLUG_PATTERN } from '../constants';
import { PROFILE_CURRENCIES, RATE_MAX, SPOKEN_LANGUAGES } from '../rules/profile-lists';
import { FILTER_AGE } from '../rules/profile-lists';
import { Picture } from './media';
import { messageText } from '../api/messages';
import { blankMessage } from '../api/errors';

const slug = z.string().regex(SLUG_PATTERN, messageText('validation.slug'));

export const DirectoryFilter = z.object({
  category: z.enum(CATEGORIES).default('escorts'),
  country: slug,
  place: slug.optional(),
});
export type DirectoryFilter = z.infer<typeof DirectoryFilter>;

export { FILTER_AGE };

/**
 * What a visitor narrows a list by (issue 27 item 1, docs/decisions/0324). Every key is optional; an absent
 * key does not filter. Never part of the order: a filtered list is the unfiltered one with rows left out.
 * Unknown keys and values are a 422 (strict), so a typo never silently means "no filter".
 * - `age_min`/`age_max`: whole years, only profiles that show their age (0321);
 * - `price_min`/`price_max` with `currency`: the in-call 60-minute rate, or the out-call one when she offers
 *   no in-call; whole units of `currency`, and only profiles whose rates are in that currency;
 * - `services`, `languages`: any of them; `verified`, `video`, `incall`, `outcall`, `available`: true only.
 */
const flag = z.literal(true);
const age = z.number().int().min(FILTER_AGE.min).max(FILTER_AGE.max);
const price = z.number().int().min(0).max(RATE_MAX);
export const ListFilters = z
  .strictObject({
    age_min: age.optional(),
    age_max: age.optional(),
    price_min: price.optional(),
    price_max: price.optional(),
    currency: z.enum(PROFILE_CURRENCIES).optional(),
    services: z.array(z.enum(SERVICES)).max(SERVICES.length).optional(),
    languages: z.array(z.enum(SPOKEN_LANGUAGES)).max(SPOKEN_LANGUAGES.length).optional(),
    verified: flag.optional(),
    video: flag.optional(),
    incall: flag.optional(),
    outcall: flag.optional(),
    available: flag.optional(),
  })
  .refine((f) => f.age_min === undefined || f.age_max === undefined || f.age_min <= f.age_max, {
    message: messageText('directory.filterRange'),
    path: ['age_max'],
  })
  .refine((f) => f.price_min === undefined || f.price_max === undefined || f.price_min <= f.price_max, {
    message: messageText('directory.filterRange'),
    path: ['price_max'],
  })
  .refine((f) => (f.price_min === undefined && f.price_max === undefined) || f.currency !== undefined, {
    message: messageText('directory.filterCurrency'),
    path: ['currency'],
  });
export type ListFilters = z.infer<typeof ListFilters>;

/** getDirectory's body: the list, and what narrows it. */
export const DirectoryListBody = DirectoryFilter.extend({ filters: ListFilters.optional() });
export type DirectoryListBody = z.infer<typeof DirectoryListBody>;

export const PageQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });

/**
 * Deep pages cost the database more with every page, so the public lists stop somewhere (issue 8,
 * docs/decisions/0802): the directory and search at 200 pages (4,800 profiles; a city or a more precise
 * query narrows the list), nearby at 20 (480 nearest profiles). A page above the limit is a 422.
 */
export const LIST_MAX_PAGE = 200;
/**
 * A filtered list's or a search's total is counted up to this many pages (decision 0735): past it the
 * answer says "more than" that many (`total_more`). Paging still reaches LIST_MAX_PAGE.
 */
export const COUNTED_TOTAL_PAGES = 5;
export const NEARBY_MAX_PAGE = 20;
const pageUpTo = (max: number) => z.object({ page: z.coerce.number().int().min(1).max(max).default(1) });
export const ListPageQuery = pageUpTo(LIST_MAX_PAGE);
export const NearbyPageQuery = pageUpTo(NEARBY_MAX_PAGE);

/** One card of a directory list. */
export const ProfileItem = z.object({
  id: z.number(),
  name: z.string(),
  heading: z.string().nullable(),
  avatar: Picture.nullable(),
  verified: z.boolean(),
  /** "Available now" runs (docs/decisions/0320): a badge, never a position. */
  available_now: z.boolean(),
  /** In an additional location whose tour, if dated, runs now (docs/decisions/0403). */
  on_tour: z.boolean(),
  /** A dated tour: announced while coming ("visiting from"), with its dates while it runs. */
  tour: z
    .object({ state: z.enum(['coming', 'now']), from: z.string().nullable(), until: z.string().nullable() })
    .nullable(),
  /** Rank in this listing, 1 = top (DESIGN.md: bumped_at desc, then id). */
  position: z.number().optional(),
  user: z.object({
    city: z.string().nullable(),
    place: z.string().nullable(),
    profile: z.string().nullable(),
  }),
});
export type ProfileItem = z.infer<typeof ProfileItem>;

export const DirectoryPage = z.object({
  data: z.array(ProfileItem),
  page: z.number(),
  has_more: z.boolean(),
  total: z.number(),
  /**
   * The total is a floor: more rows than `total` match (a filtered list or a search counts up to
   * COUNTED_TOTAL_PAGES pages, decision 0735); absent when the total is exact.
   */
  total_more: z.boolean().optional(),
});
export type DirectoryPage = z.infer<typeof DirectoryPage>;

/** A city page's coming visitors (issue 27 item 4, docs/decisions/0323): tours starting within this many days. */
export const TOURS_AHEAD_DAYS = 14;
/** POST /api/directory/getToursAhead: a city page's scope (the place is required). */
export const ToursAheadBody = z.strictObject({
  category: z.enum(CATEGORIES).default('escorts'),
  country: slug,
  place: slug,
});
/** Listed profiles whose tour in the city starts after today and within TOURS_AHEAD_DAYS, soonest first. */
export const ToursAhead = z.object({ data: z.array(ProfileItem), days: z.number() });
export type ToursAhead = z.infer<typeof ToursAhead>;

export const Navigation = z.object({
  category: z.enum(CATEGORIES),
  country: z.object({ code: z.string(), slug: z.string(), name: z.string() }),
  place: z.object({ id: z.number(), slug: z.string(), name: z.string() }).nullable(),
  /** Cities of the country that have listings in this category, busiest first. */
  places: z.array(z.object({ slug: z.string(), name: z.string(), count: z.number() })),
  /** Listings per category in this country (and place). */
  counts: z.record(z.string(), z.number()),
  title: z.string(),
});
export type Navigation = z.infer<typeof Navigation>;

export const CountryCount = z.object({ code: z.string(), slug: z.string(), name: z.string(), count: z.number() });
export const CountriesResponse = z.object({ data: z.array(CountryCount) });
/** `GET /directory/countries?category=`: the counts of one category (escorts: all). */
export const CountriesQuery = z.strictObject({ category: z.enum(CATEGORIES).default('escorts') });

export const SearchBody = z.object({
  q: withoutControlCharacters(z.string({ error: () => blankMessage('Search') }), 'Search')
    .trim()
    .min(SEARCH_MIN_CHARS, messageText('validation.searchMin', { n: SEARCH_MIN_CHARS }))
    .max(100),
  filters: ListFilters.optional(),
});

/** GET /getProfileByName/{name} and the page /@{name}. */
export const ProfileName = text('Name', 100).min(1);

export const RateTable = z.object({
  incall: z.record(z.string(), z.number().int().nullable()),
  outcall: z.record(z.string(), z.number().int().nullable()),
});

export const Profile = z.object({
  user_id: z.number(),
  title: z.string(),
  view: z.string().optional(),
  can_edit: z.boolean(),
  screen_name: z.string(),
  heading: z.string().nullable(),
  about: z.string().nullable(),
  gender: z.string().nullable(),
  sexuality: z.string().nullable(),
  services: z.array(z.string()),
  personality: z.array(z.string()),
  languages: z.array(z.string()),
  currency: z.string(),
  phone: z.string().nullable(),
  landmark: z.string().nullable(),
  city: z
    .object({ id: z.number(), name: z.string(), slug: z.string(), country: z.string(), country_slug: z.string() })
    .nullable(),
  place: z.string().nullable(),
  tours: z.array(
    z.object({
      city: z.string(),
      from: z.string().nullable(),
      until: z.string().nullable(),
      /** Starts later (issue 27 item 4): shown as coming. */
      coming: z.boolean(),
    }),
  ),
  comments_enabled: z.boolean(),
  dominatrix: z.boolean(),
  links: z.record(z.string(), z.record(z.string(), z.string())),
  availability: z.record(z.string(), z.object({ from: z.string(), until: z.string() }).nullable()),
  rates: RateTable,
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  /** "Available now" until this moment (ISO), null while off (docs/decisions/0320). */
  available_until: z.string().nullable(),
  /**
   * Her age from the date of birth given at registration, when she shows it (off by default), and whether
   * her ID verification checked it; never the date (docs/decisions/0321).
   */
  age: z.object({ years: z.number(), checked: z.boolean() }).nullable(),
  views: z.number(),
  /** Seconds since the owner was last seen; null when never. */
  last_seen: z.number().nullable(),
  avatar: Picture.nullable(),
  /** `url`: the largest JPEG, for the viewer and a new tab; `picture`: the thumbnail's variants. */
  gallery: z.array(z.object({ id: z.number(), url: z.string(), picture: Picture })),
  /** Approved videos only: a pending one is never public. */
  video: z.string().nullable(),
  /** The video's poster frame (JPEG). */
  poster: z.string().nullable(),
});
export type Profile = z.infer<typeof Profile>;
/** GET /getProfile/{id} and /getProfileByName/{name} (`view` with ?render=1). */
export const ProfileResponse = z.object({ profile: Profile });

/** The report form (setFeedback's `data`): the client's form and the server read the same fields. */
export const FeedbackData = z.object({
  profile_id: id().optional(),
  reason: z.enum(FEEDBACK_REASONS, { error: () => blankMessage('Reason') }),
  message: withoutControlCharacters(z.string(), 'Message').trim().max(2000).optional(),
  contact: withoutControlCharacters(z.string(), 'Contact').trim().max(200).optional(),
});
export type FeedbackData = z.infer<typeof FeedbackData>;

export const FeedbackBody = z.object({ data: FeedbackData });

export const ImpressionsBody = z.object({
  /** Page address -> profile ids seen there. */
  impressions: z.record(text('Page', 500), z.array(id()).max(500)),
});

export const NearbyBody = z.object({
  lat: z
    .number({ error: () => blankMessage('Latitude') })
    .min(-90)
    .max(90),
  lng: z
    .number({ error: () => blankMessage('Longitude') })
    .min(-180)
    .max(180),
  category: z.enum(CATEGORIES).default('escorts'),
  filters: ListFilters.optional(),
});

export const NearbyPage = DirectoryPage.extend({
  data: z.array(ProfileItem.extend({ distance_km: z.number() })),
});

/** POST /directory/impressions: how many of the profiles seen were counted (listed ones only). */
export const ImpressionsResponse = z.object({ counted: z.number() });
export type ImpressionsResponse = z.infer<typeof ImpressionsResponse>;

/** POST /directory/phoneReveal/{id}: `ok: true`, alike whether this reveal was counted or not (0808). */
export const PhoneRevealResponse = z.object({ ok: z.boolean() });
export type PhoneRevealResponse = z.infer<typeof PhoneRevealResponse>;
