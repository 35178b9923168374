// Rules of the profile's edit sections (spec sections 3 and 5) that the browser form and the server
// both apply: what a screen name may be, what counts as a phone number, and the closed lists the
// sections choose from. Pure: no DOM, no database. What a phone number is lives in ./phone.ts.

// The closed lists the directory's filters read too live apart, so that the public pages' code does not
// carry the phone number metadata this file needs (issue 27 item 1).
export { PROFILE_CURRENCIES, RATE_MAX, SPOKEN_LANGUAGES } from './profile-lists.ts';

export const SCREEN_NAME_MIN = 2;
export const SCREEN_NAME_MAX = 30;
export const HEADING_MAX = 100;
export const ABOUT_MAX = 10_000;
export const PLACE_MAX = 80;
export const LANDMARK_MAX = 120;

/**
 * Spec section 5: "The screen name is a name only, with no slogans or ads." A name starts with a
 * letter and holds letters, spaces, apostrophes, dots and hyphens, and at most 3 digits (so "Anna2"
 * passes and a phone number does not); no web address; at most 4 words; none of the words
 * directories see in slogans ("Best GFE in town", "Hot Anna", "VIP Escort").
 */
const NAME_CHARS = /^[\p{L}\p{M}][\p{L}\p{M}\d '’.-]*$/u;
const LINK_LIKE = /(https?|www\.)|\.(com|net|org|info|biz|xxx|io|co|me|de|es|uk|eu|app|site|online|club|link)\b/iu;
const AD_WORDS = new Set([
  'best',
  'cheap',
  'cheapest',
  'sexy',
  'hot',
  'new',
  'vip',
  'gfe',
  'pse',
  'call',
  'text',
  'whatsapp',
  'telegram',
  'available',
  'incall',
  'outcall',
  'offer',
  'discount',
  'escort',
  'escorts',
  'massage',
  'top',
  'real',
  'sale',
  'free',
  'now',
  'today',
  'xxx',
]);

export function isNameOnly(value: string): boolean {
  const name = value.trim();
  if (!NAME_CHARS.test(name)) return false;
  if (LINK_LIKE.test(name)) return false;
  if ((name.match(/\d/g) ?? []).length > 3) return false;
  const words = name.split(/\s+/).filter(Boolean);
  if (words.length > 4) return false;
  return !words.some((w) => AD_WORDS.has(w.toLowerCase().replace(/[.'’-]/g, '')));
}

/** Personality traits a profile may show (Personality section), keys of the `edit` catalogue. */
export const PERSONALITY_TRAITS = [
  'friendly',
  'outgoing',
  'shy',
  'playful',
  'elegant',
  'intelligent',
  'adventurous',
  'calm',
  'funny',
  'caring',
  'confident',
  'sporty',
  'romantic',
  'open_minded',
  'discreet',
  'creative',
] as const;
export const PERSONALITY_MAX = 8;

export const LANGUAGES_MAX = 10;

/** Edit Links (spec section 2: messenger, crypto, social): the services of each group. */
export const LINK_KEYS = {
  messenger: ['telegram', 'whatsapp', 'signal', 'viber', 'wechat', 'line', 'threema'],
  social: ['instagram', 'x', 'onlyfans', 'facebook', 'tiktok', 'bluesky'],
  crypto: ['btc', 'eth', 'usdt', 'ltc', 'xmr'],
} as const;
export type LinkGroup = keyof typeof LINK_KEYS;

/**
 * Messengers that reach a phone number (docs/decisions/0311): WhatsApp and Viber hold nothing else, so
 * their field takes a number only, by the Phone field's rule; Telegram and Signal hold a number or a
 * username, and a value written like a number is checked as one. Each offers "same as my phone".
 */
export const NUMBER_MESSENGERS = ['whatsapp', 'viber'] as const;
export const NUMBER_OR_NAME_MESSENGERS = ['telegram', 'signal'] as const;
export const PHONE_MESSENGERS = [...NUMBER_MESSENGERS, ...NUMBER_OR_NAME_MESSENGERS] as const;
export type PhoneMessenger = (typeof PHONE_MESSENGERS)[number];

/** A messenger value written like a phone number: digits and the signs people put between them. */
export const looksLikePhoneNumber = (value: string) =>
  /^[+\d\s\u00a0()./\-\u2010-\u2015]+$/.test(value) && /\d/.test(value);

export const LINK_MAX = 200;

/** Counts words the way a reader would (the About Me advice of spec section 5). */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
