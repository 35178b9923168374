// Bodies and answers of the edit calls (spec section 7): POST /edit/setAttribute/{id},
// POST /edit/getAttribute/{id}, GET /getUpdateData/{id}, POST /update, GET /edit/getOverview/{id}/{days},
// plus the city picker and the listings screen (docs/decisions/0310). Every section of /edit/{id} is one
// of the *Section schemas: the browser form and the server check the same rules (spec section 5).
// Strict objects: unknown keys are refused.
import { z } from 'zod';
import { blankMessage } from '../api/errors';
import { id, isoDay, optionalString, requiredString, text } from '../api/fields';
import { GENDERS, SERVICES, SEXUALITIES, WEEKDAYS, RATE_KEYS } from '../constants';
import {
  ABOUT_MAX,
  HEADING_MAX,
  isNameOnly,
  LANDMARK_MAX,
  LANGUAGES_MAX,
  LINK_KEYS,
  LINK_MAX,
  looksLikePhoneNumber,
  NUMBER_MESSENGERS,
  NUMBER_OR_NAME_MESSENGERS,
  PERSONALITY_MAX,
  PERSONALITY_TRAITS,
  PLACE_MAX,
  PROFILE_CURRENCIES,
  RATE_MAX,
  SCREEN_NAME_MAX,
  SCREEN_NAME_MIN,
  SPOKEN_LANGUAGES,
} from '../rules/profile-fields';
import { checkPhone, PHONE_MAX, phoneRefusalMessage } from '../rules/phone';
import { messageText } from '../api/messages';

/** Items a complete profile needs (server: profile-derive's missingFields). */
export const REQUIRED_FIELDS = ['screenName', 'heading', 'gender', 'cityId', 'phone', 'about', 'avatar'] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];

// English messages for the 422 bodies; `params.i18n` names the browser's translation (form kit).
export const SCREEN_NAME_MESSAGE = messageText('edit:errors.screenName', { label: 'Screen name' });
export const HEADING_LINE_MESSAGE = messageText('edit:errors.oneLine', { label: 'Ad heading' });
export const TOUR_ORDER_MESSAGE = messageText('edit:errors.tourOrder');
export const UNIQUE_MESSAGE = messageText('validation.uniqueEntries');

const oneOf = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { error: () => messageText('validation.choice', { label }) });

const uniqueList = <T extends z.ZodType<string>>(item: T, max: number, label: string) =>
  z
    .array(item, { error: () => messageText('validation.list', { label }) })
    .max(max, messageText('validation.maxItems', { label, n: max }))
    .refine((list) => new Set(list).size === list.length, { message: UNIQUE_MESSAGE });

// ---------------------------------------------------------------- sections

export const ScreenNameSection = z.strictObject({
  screen_name: requiredString('Screen name', SCREEN_NAME_MAX)
    .min(SCREEN_NAME_MIN, messageText('auth:errors.tooShort', { label: 'Screen name', count: SCREEN_NAME_MIN }))
    .refine(isNameOnly, { message: SCREEN_NAME_MESSAGE, params: { i18n: 'edit:errors.screenName' } }),
});

export const HeadingSection = z.strictObject({
  heading: requiredString('Ad heading', HEADING_MAX).refine((v) => !/[\r\n]/.test(v), {
    message: HEADING_LINE_MESSAGE,
    params: { i18n: 'edit:errors.oneLine' },
  }),
});

export const AboutSection = z.strictObject({ about: requiredString('About me', ABOUT_MAX) });

export const GenderSection = z.strictObject({
  gender: z.enum(GENDERS, { error: () => blankMessage('Gender') }),
});

export const SexualitySection = z.strictObject({
  sexuality: oneOf(SEXUALITIES, 'Sexuality').nullable(),
});

/**
 * A phone number as people type it (spaces, dashes, brackets, dots, 00 for +), kept as E.164; a refusal
 * says why and names the country (#shared/rules/phone.ts, docs/decisions/0311).
 */
function phoneNumber(value: string, ctx: z.RefinementCtx, label: string): string {
  const checked = checkPhone(value);
  if (checked.ok) return checked.e164;
  const { key, values } = phoneRefusalMessage(checked);
  ctx.addIssue({ code: 'custom', message: messageText(key, { label, ...values }), params: { i18n: key, ...values } });
  return z.NEVER;
}

export const PhoneSection = z.strictObject({
  phone: requiredString('Phone', PHONE_MAX).transform((v, ctx) => phoneNumber(v, ctx, 'Phone')),
});

export const ServicesSection = z.strictObject({
  services: uniqueList(oneOf(SERVICES, 'Service'), SERVICES.length, 'Services'),
});

export const PersonalitySection = z.strictObject({
  personality: uniqueList(oneOf(PERSONALITY_TRAITS, 'Personality'), PERSONALITY_MAX, 'Personality'),
});

export const LanguageSection = z.strictObject({
  languages: uniqueList(oneOf(SPOKEN_LANGUAGES, 'Language'), LANGUAGES_MAX, 'Languages'),
});

export const LocationSection = z.strictObject({
  /** A city of the imported list (GET /edit/findCities); its country comes with it. */
  city_id: id(blankMessage('City')),
  /** The area inside the city ("Soho"), shown as "City - Area". */
  place: optionalString('Area', PLACE_MAX),
  landmark: optionalString('Landmark', LANDMARK_MAX),
});

// Refinements rather than .int()/.min()/.max(): their issues name the browser's sentence (params.i18n).
const price = z
  .number({ error: () => messageText('edit:errors.wholeAmount', { label: 'Rates' }) })
  .refine(Number.isInteger, {
    message: messageText('edit:errors.wholeAmount', { label: 'Rates' }),
    params: { i18n: 'edit:errors.wholeAmount' },
  })
  .refine((v) => v >= 0, {
    message: messageText('edit:errors.negative', { label: 'Rates' }),
    params: { i18n: 'edit:errors.negative' },
  })
  .refine((v) => v <= RATE_MAX, {
    message: messageText('edit:errors.tooHigh', { label: 'Rates', max: RATE_MAX }),
    params: { i18n: 'edit:errors.tooHigh', max: RATE_MAX },
  })
  .nullable();
const rateTable = <K extends readonly string[]>(keys: K) =>
  z.strictObject(
    Object.fromEntries(keys.map((k) => [k, price.optional()])) as unknown as Record<
      K[number],
      z.ZodOptional<typeof price>
    >,
  );

/** Spec section 3: the 11 rate fields, whole units of the profile's currency; null = not offered. */
export const RatesSection = z.strictObject({
  currency: oneOf(PROFILE_CURRENCIES, 'Currency'),
  incall: rateTable(RATE_KEYS.incall),
  outcall: rateTable(RATE_KEYS.outcall),
});

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, messageText('validation.timesFormat'));
const slot = z.strictObject({ from: time, until: time }).nullable();

/** Hours per weekday (Monday to Sunday); null = not available. An `until` before `from` runs past midnight. */
export const AvailabilitySection = z.strictObject({
  availability: z.strictObject(
    Object.fromEntries(WEEKDAYS.map((d) => [d, slot.optional()])) as unknown as Record<
      (typeof WEEKDAYS)[number],
      z.ZodOptional<typeof slot>
    >,
  ),
});

const linkValue = (label: string) =>
  text(label, LINK_MAX)
    .trim()
    .refine((v) => !/\s/.test(v), { message: messageText('validation.noSpaces', { label }) });

/** A WhatsApp link to a number ("https://wa.me/447...") is that number. */
const WHATSAPP_LINK = /^(?:https?:\/\/)?(?:wa\.me\/|api\.whatsapp\.com\/send\/?\?phone=)\+?(\d+)\/?$/i;

/** The messengers' own names, the label of their numbers' messages (the same in every language). */
const MESSENGER_NAMES: Record<string, string> = {
  whatsapp: 'WhatsApp',
  viber: 'Viber',
  telegram: 'Telegram',
  signal: 'Signal',
};

/**
 * A messenger that reaches a number: WhatsApp and Viber take a number only, Telegram and Signal a number
 * or a username (a value written like a number is one). Numbers by the Phone field's rule, kept as E.164;
 * empty removes the entry.
 */
const messengerNumber = (key: string, numberOnly: boolean) => {
  const label = MESSENGER_NAMES[key] ?? 'Messenger';
  return text(label, LINK_MAX)
    .trim()
    .transform((v, ctx) => {
      if (v === '') return v;
      const link = key === 'whatsapp' ? WHATSAPP_LINK.exec(v) : null;
      if (link) return phoneNumber(`+${link[1]}`, ctx, label);
      if (numberOnly || looksLikePhoneNumber(v)) return phoneNumber(v, ctx, label);
      if (/\s/.test(v)) {
        ctx.addIssue({ code: 'custom', message: messageText('validation.noSpaces', { label: 'Messenger' }) });
        return z.NEVER;
      }
      return v;
    });
};

const linkField = (group: string, key: string, label: string) =>
  group !== 'messenger'
    ? linkValue(label)
    : (NUMBER_MESSENGERS as readonly string[]).includes(key)
      ? messengerNumber(key, true)
      : (NUMBER_OR_NAME_MESSENGERS as readonly string[]).includes(key)
        ? messengerNumber(key, false)
        : linkValue(label);

const linkGroup = <K extends readonly string[]>(group: string, keys: K, label: string) =>
  z.strictObject(
    Object.fromEntries(keys.map((k) => [k, linkField(group, k, label).optional()])) as unknown as Record<
      K[number],
      z.ZodOptional<z.ZodType<string, string>>
    >,
  );

/** Edit Links: messenger handles, social profiles, crypto addresses; an empty value removes the entry. */
export const LinksSection = z.strictObject({
  links: z.strictObject({
    messenger: linkGroup('messenger', LINK_KEYS.messenger, 'Messenger'),
    social: linkGroup('social', LINK_KEYS.social, 'Social link'),
    crypto: linkGroup('crypto', LINK_KEYS.crypto, 'Crypto address'),
  }),
});

const SECTIONS = {
  screen_name: ScreenNameSection,
  heading: HeadingSection,
  about: AboutSection,
  gender: GenderSection,
  sexuality: SexualitySection,
  phone: PhoneSection,
  services: ServicesSection,
  personality: PersonalitySection,
  language: LanguageSection,
  location: LocationSection,
  rates: RatesSection,
  availability: AvailabilitySection,
  links: LinksSection,
} as const;
export type UpdateSection = keyof typeof SECTIONS;
export const UPDATE_SECTIONS = Object.keys(SECTIONS) as UpdateSection[];

/** The profile to change: the signed-in account's when left out (an admin names another). */
const target = { user_id: id().optional() };

/** POST /update: one section, named by `section`, with that section's fields. */
export const UpdateBody = z.discriminatedUnion(
  'section',
  [
    ScreenNameSection.extend({ section: z.literal('screen_name'), ...target }),
    HeadingSection.extend({ section: z.literal('heading'), ...target }),
    AboutSection.extend({ section: z.literal('about'), ...target }),
    GenderSection.extend({ section: z.literal('gender'), ...target }),
    SexualitySection.extend({ section: z.literal('sexuality'), ...target }),
    PhoneSection.extend({ section: z.literal('phone'), ...target }),
    ServicesSection.extend({ section: z.literal('services'), ...target }),
    PersonalitySection.extend({ section: z.literal('personality'), ...target }),
    LanguageSection.extend({ section: z.literal('language'), ...target }),
    LocationSection.extend({ section: z.literal('location'), ...target }),
    RatesSection.extend({ section: z.literal('rates'), ...target }),
    AvailabilitySection.extend({ section: z.literal('availability'), ...target }),
    LinksSection.extend({ section: z.literal('links'), ...target }),
  ],
  { error: () => messageText('validation.sectionChoice', { list: UPDATE_SECTIONS.join(', ') }) },
);
export type UpdateBody = z.infer<typeof UpdateBody>;

// ---------------------------------------------------------------- attributes

export const ATTRIBUTES = ['ad_status', 'comments', 'dominatrix', 'show_age'] as const;
export type Attribute = (typeof ATTRIBUTES)[number];

export const AdStatusSection = z.strictObject({
  value: z.enum(['visible', 'hidden'], { error: () => blankMessage('Ad status') }),
});
export const CommentsSection = z.strictObject({ value: z.boolean({ error: () => blankMessage('Comments') }) });
export const DominatrixSection = z.strictObject({ value: z.boolean({ error: () => blankMessage('Dominatrix') }) });
/** Her age on the profile, from the date of birth given at registration (docs/decisions/0321); off at first. */
export const ShowAgeSection = z.strictObject({ value: z.boolean({ error: () => blankMessage('Show age') }) });

/**
 * POST /edit/setAttribute/{id}: one switch of the ad, in effect at once: ad status (a hidden ad leaves the
 * directory, search, sitemap and the public pages), comments on or off, the dominatrix listing (/dom), her
 * age shown on the profile.
 */
export const SetAttributeBody = z.discriminatedUnion(
  'attribute',
  [
    AdStatusSection.extend({ attribute: z.literal('ad_status') }),
    CommentsSection.extend({ attribute: z.literal('comments') }),
    DominatrixSection.extend({ attribute: z.literal('dominatrix') }),
    ShowAgeSection.extend({ attribute: z.literal('show_age') }),
  ],
  { error: () => messageText('validation.attributeChoice', { list: ATTRIBUTES.join(', ') }) },
);
export type SetAttributeBody = z.infer<typeof SetAttributeBody>;

/** POST /edit/getAttribute/{id}. */
export const GetAttributeBody = z.strictObject({
  attribute: z.enum(ATTRIBUTES, {
    error: () => messageText('validation.attributeChoice', { list: ATTRIBUTES.join(', ') }),
  }),
});

export const AttributeResponse = z.object({
  data: z.object({ attribute: z.enum(ATTRIBUTES), value: z.union([z.string(), z.boolean()]) }),
});
export type AttributeResponse = z.infer<typeof AttributeResponse>;

// ---------------------------------------------------------------- answers

export const CityRef = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  country_code: z.string(),
  country_name: z.string(),
  country_slug: z.string(),
});
export type CityRef = z.infer<typeof CityRef>;

/** GET /getUpdateData/{id}: every section's current values, and what completion still needs. */
export const UpdateData = z.object({
  user_id: z.number(),
  screen_name: z.string().nullable(),
  heading: z.string().nullable(),
  about: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  sexuality: z.enum(SEXUALITIES).nullable(),
  services: z.array(z.string()),
  personality: z.array(z.string()),
  languages: z.array(z.string()),
  currency: z.string(),
  phone: z.string().nullable(),
  city: CityRef.nullable(),
  place: z.string().nullable(),
  landmark: z.string().nullable(),
  ad_status: z.enum(['visible', 'hidden']),
  comments: z.boolean(),
  dominatrix: z.boolean(),
  links: z.record(z.string(), z.record(z.string(), z.string())),
  availability: z.record(z.string(), z.object({ from: z.string(), until: z.string() }).nullable()),
  rates: z.object({
    incall: z.record(z.string(), z.number().nullable()),
    outcall: z.record(z.string(), z.number().nullable()),
  }),
  has_avatar: z.boolean(),
  complete: z.boolean(),
  /** Public in the directory and search now (complete, visible, not flagged, account active). */
  listed: z.boolean(),
  flagged: z.boolean(),
  /** Required items still missing, in the order the completion walk asks them. */
  missing: z.array(z.enum(REQUIRED_FIELDS)),
  verification: z.enum(['none', 'pending', 'verified', 'declined']),
  /** Her age is shown on the profile (docs/decisions/0321). */
  show_age: z.boolean(),
});
export type UpdateData = z.infer<typeof UpdateData>;
export const UpdateDataResponse = z.object({ data: UpdateData });
export type UpdateDataResponse = z.infer<typeof UpdateDataResponse>;

/** GET /edit/getOverview/{id}/{days}: the top of /edit/{id}. */
export const OverviewParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
  days: z.coerce.number().int().min(1).max(90),
});

export const StatsDay = z.object({
  day: z.string(),
  impressions: z.number(),
  views: z.number(),
  phone_reveals: z.number(),
});
export type StatsDay = z.infer<typeof StatsDay>;

export const Overview = z.object({
  user_id: z.number(),
  screen_name: z.string().nullable(),
  complete: z.boolean(),
  missing: z.array(z.enum(REQUIRED_FIELDS)),
  ad_status: z.enum(['visible', 'hidden']),
  listed: z.boolean(),
  flagged: z.boolean(),
  /** Rank in the home city for `escorts` (1 = top); null while not listed. */
  position: z.number().nullable(),
  /** Credits, minor units of the site currency. */
  balance: z.number(),
  currency: z.string(),
  verification: z.object({
    status: z.enum(['none', 'pending', 'verified', 'declined']),
    verified_at: z.string().nullable(),
  }),
  city: CityRef.nullable(),
  /**
   * Her age from the date of birth given at registration (the date itself is never sent), whether the
   * profile shows it, and whether her ID verification checked it (docs/decisions/0321).
   */
  age: z.object({ years: z.number(), shown: z.boolean(), checked: z.boolean() }),
  /** "Available now" until this moment (ISO); null while off or ended (docs/decisions/0320). */
  available_until: z.string().nullable(),
  /** One entry per day, oldest first, the last being today (UTC); days without activity are zeros. */
  stats: z.array(StatsDay),
  totals: z.object({ impressions: z.number(), views: z.number(), phone_reveals: z.number() }),
});
export type Overview = z.infer<typeof Overview>;
export const OverviewResponse = z.object({ data: Overview });
export type OverviewResponse = z.infer<typeof OverviewResponse>;

// ---------------------------------------------------------------- cities and listings

/** GET /edit/findCities?q=&country=: the city picker over the imported cities. */
export const FindCitiesQuery = z.strictObject({
  q: text('Search', 80).trim().min(1, blankMessage('Search')),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, messageText('validation.countryCode'))
    .transform((v) => v.toUpperCase())
    .optional(),
});
export const CitiesResponse = z.object({ data: z.array(CityRef.extend({ population: z.number() })) });
export type CitiesResponse = z.infer<typeof CitiesResponse>;

const isoDate = isoDay();

/**
 * POST /edit/setTourDates/{id}: the dates of one additional location. Spec section 5: a tour location may
 * have from and until dates; an out-call location leaves them empty.
 */
export const TourDatesBody = z
  .strictObject({
    listing_id: id(),
    from: isoDate.nullable(),
    until: isoDate.nullable(),
  })
  .refine((v) => !v.from || !v.until || v.until >= v.from, {
    message: TOUR_ORDER_MESSAGE,
    path: ['until'],
    params: { i18n: 'edit:errors.tourOrder' },
  });
export type TourDatesBody = z.infer<typeof TourDatesBody>;

export const ListingView = z.object({
  id: z.number(),
  kind: z.enum(['home', 'additional']),
  city: CityRef,
  tour_from: z.string().nullable(),
  tour_until: z.string().nullable(),
  expires_at: z.string().nullable(),
  /** The end of the days paid for (an additional location); a tour's listing ends with the tour, before it. */
  paid_until: z.string().nullable(),
  /**
   * Days left of an additional location, today included (30 right after buying 30 days, 1 on its last
   * day); null for the home city. listings/tour-dates.ts daysLeft.
   */
  days_left: z.number().nullable(),
  /** The last day it is listed (YYYY-MM-DD, the city's calendar); null for the home city. */
  last_day: z.string().nullable(),
  /** Rank in that city for `escorts` (1 = top); null while the profile is not listed. */
  position: z.number().nullable(),
});
export type ListingView = z.infer<typeof ListingView>;
export const ListingsResponse = z.object({ data: z.object({ listed: z.boolean(), listings: z.array(ListingView) }) });
export type ListingsResponse = z.infer<typeof ListingsResponse>;

// ---------------------------------------------------------------- available now

/** "Available now" lasts 1 to 8 hours (issue 27, item 3); 0 switches it off before its end. */
export const AVAILABLE_HOURS_MAX = 8;
const availableHours = z
  .number({ error: () => messageText('edit:errors.availableHours', { max: AVAILABLE_HOURS_MAX }) })
  .refine((v) => Number.isInteger(v) && v >= 0 && v <= AVAILABLE_HOURS_MAX, {
    message: messageText('edit:errors.availableHours', { max: AVAILABLE_HOURS_MAX }),
    params: { i18n: 'edit:errors.availableHours', max: AVAILABLE_HOURS_MAX },
  });

/** POST /edit/setAvailableNow/{id}: "available now" from this moment for `hours`; 0 ends it now. */
export const AvailableNowBody = z.strictObject({ hours: availableHours });
export type AvailableNowBody = z.infer<typeof AvailableNowBody>;
export const AvailableNowResponse = z.object({ data: z.object({ available_until: z.string().nullable() }) });
export type AvailableNowResponse = z.infer<typeof AvailableNowResponse>;
