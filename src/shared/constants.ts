// Business constants of the spec (section 9) and of DESIGN.md. One place, every language uses them.
export const API_BASE = '/api';
export const PIN_LENGTH = 6;
export const GALLERY_MAX = 9;
export const VERIFICATION_REVIEW_HOURS = 24;
export const ACCOUNT_PURGE_DAYS = 14;
export const PHOTO_ID_RETENTION_DAYS = 30;
/** DESIGN.md: the Spanish source said 300, an error; this constant is used in every language. */
export const AVATAR_CHANGE_MAX_POSITION = 100;
export const ABOUT_ME_ADVISED_WORDS = 300;
export const SEARCH_MIN_CHARS = 3;
export const NARROW_BREAKPOINT = 567;
export const SHARE_BUTTON_BREAKPOINT = 768;
export const ONLINE_PING_MS = 10 * 60 * 1000;
export const USER_DATA_DELAY_MS = 500;
export const IMPRESSIONS_FLUSH_MS = 5000;
export const RESIZE_DEBOUNCE_MS = 250;
export const INFINITE_SCROLL_REARM_MS = 250;
export const VIDEO_AUTOPLAY_DELAY_MS = 250;
export const GALLERY_START_DELAY_MS = 150;
export const SHARE_POPUP_SIZE = { width: 500, height: 500 };
export const DIALOG_Z_INDEX = 10000;
export const MODAL_Z_INDEX = 9999;
export const RELATIVE_TIME_LOCALE = 'en-GB';
export const SECTION_LOAD_TIMEOUT_MS = 120_000;
export const MIN_AGE = 18;
export const PAGE_SIZE = 24;
export const ADDITIONAL_LOCATION_DAYS = 30;
export const AUTO_TOPUP_GRACE_MINUTES = 15;

export const LANGUAGES = ['en', 'de', 'es', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

export const CATEGORIES = ['escorts', 'female', 'male', 'trans', 'dom'] as const;
export type Category = (typeof CATEGORIES)[number];

export const GENDERS = ['female', 'male', 'trans'] as const;
export const SEXUALITIES = ['bi', 'gay', 'straight'] as const;
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export const SERVICES = [
  'massage',
  'gfe',
  'bdsm',
  'dinner_date',
  'travel_companion',
  'overnight',
  'role_play',
  'striptease',
  'lap_dance',
  'couples',
  'duo',
  'domination',
  'submission',
  'fetish',
  'foot_fetish',
  'kissing',
  'cuddling',
  'erotic_massage',
  'tantric_massage',
  'shower_together',
  'lingerie',
  'uniforms',
  'video_call',
  'social_events',
  'weekend_trips',
  'body_worship',
  'spanking',
  'tie_and_tease',
] as const;

export const RATE_KEYS = {
  incall: ['30min', '60min', '90min', '120min', 'quickie', 'overnight'],
  outcall: ['60min', '90min', '120min', 'dinner', 'overnight'],
} as const;

/** Spec section 8: decline reasons of a verification request. */
export const DECLINE_REASONS = [
  'avatar_explicit',
  'avatar_no_clear_face',
  'id_no_match',
  'avatar_several_people',
  'avatar_advertising',
  'verify_externally',
] as const;

/** DESIGN.md: feedback reasons; the safeguarding ones go to the top of the admin queue. */
export const FEEDBACK_REASONS = [
  'may_be_under_18',
  'not_free_will',
  'fake_photos',
  'wrong_contact',
  'spam',
  'other',
] as const;
export const URGENT_FEEDBACK_REASONS: ReadonlyArray<(typeof FEEDBACK_REASONS)[number]> = [
  'may_be_under_18',
  'not_free_will',
];

/** Country and place segments of directory URLs: lowercase letters and hyphens only. */
export const SLUG_PATTERN = /^[a-z-]+$/;

/** Double-submit CSRF (docs/decisions/0101): the readable cookie the SPA echoes in the header. */
export const CSRF_COOKIE = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The cart with a standard top-up put in it (/checkout/cart reads ?add=standard_topup): where the menu's
 * "TopUp" entry and the media screens' "Topup Required" lead.
 */
export const TOPUP_CART_PATH = '/checkout/cart?add=standard_topup';

/** The longest comment on a profile (the schema's limit and the comment box's counter). */
export const COMMENT_MAX_CHARS = 1000;
