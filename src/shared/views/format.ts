// Display rules the profile view needs on both sides (browser and server render). Pure: Intl only,
// no DOM, so `renderToString` on the server and the SPA produce the same text.
import { RELATIVE_TIME_LOCALE } from '../constants';

/** Spec section 2: "city - place" when both are present and different, else whichever is present, else "-". */
export function locationLabel(city: string | null | undefined, place: string | null | undefined): string {
  const c = city?.trim();
  const p = place?.trim();
  if (c && p && c.toLowerCase() !== p.toLowerCase()) return `${c} - ${p}`;
  return c || p || '-';
}

/** Spec section 2: a tap-to-call link with the spaces removed. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/\s+/g, '')}`;
}

/** Locale for Intl: English uses the spec's en-GB (relative times, dates); Portuguese is Brazilian like its
 *  texts (0606); others their own. */
export function intlLocale(language: string): string {
  if (language === 'en') return RELATIVE_TIME_LOCALE;
  return language === 'pt' ? 'pt-BR' : language;
}

// Building an Intl formatter costs far more than using one (a profile has a dozen amounts and dates):
// one per locale and options, kept for the life of the process or page.
const formatters = new Map<string, unknown>();
function cached<T>(key: string, make: () => T): T {
  let value = formatters.get(key) as T | undefined;
  if (value === undefined) {
    value = make();
    formatters.set(key, value);
  }
  return value;
}

export function formatMoney(amount: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(intlLocale(language), {
      style: 'currency',
      currency,
      maximumFractionDigits: 0,
    }).format(amount);
  } catch {
    // An unknown currency code must not break the profile.
    return `${amount} ${currency}`;
  }
}

/**
 * A calendar date ("2026-01-01") or a timestamp as a date. Read in UTC: a date-only string is UTC
 * midnight, and a visitor west of Greenwich would otherwise see the day before.
 */
export function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const locale = intlLocale(language);
  return cached(
    `date|${locale}`,
    () => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
  ).format(date);
}

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "3 hours ago" for a duration in seconds (spec section 9: relative times in en-GB for English). */
export function formatAgo(seconds: number, language: string): string {
  const locale = intlLocale(language);
  const rtf = cached(`ago|${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
  let value = Math.max(0, seconds);
  for (const [unit, size] of RELATIVE_STEPS) {
    if (value < size) return rtf.format(-Math.round(value), unit);
    value /= size;
  }
  return rtf.format(-Math.round(value), 'year');
}

/** Language codes ("de") as names in the display language ("German"); free text passes through. */
export function languageName(code: string, language: string): string {
  if (!/^[a-z]{2,3}(-[A-Za-z]{2})?$/.test(code)) return code;
  try {
    const locale = intlLocale(language);
    return cached(`lang|${locale}`, () => new Intl.DisplayNames([locale], { type: 'language' })).of(code) ?? code;
  } catch {
    return code;
  }
}

/** An advertiser's link as an href, or null: only http(s), never javascript: or data:. */
export function safeHttpUrl(value: string): string | null {
  const text = value.trim();
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Messenger handles that have a public web address; anything else is shown as text. */
export function messengerHref(service: string, value: string): string | null {
  const v = value.trim();
  const url = safeHttpUrl(v);
  if (url) return url;
  switch (service.toLowerCase()) {
    case 'telegram': {
      const handle = v.replace(/^@/, '');
      return /^[A-Za-z0-9_]{5,32}$/.test(handle) ? `https://t.me/${handle}` : null;
    }
    case 'whatsapp': {
      const digits = v.replace(/[^\d]/g, '');
      return digits.length >= 7 && digits.length <= 15 ? `https://wa.me/${digits}` : null;
    }
    default:
      return null;
  }
}

/** The profile name in small text under an item: only when shown (non-empty) and different from the name. */
export function secondaryName(name: string, profileName: string | null | undefined): string | null {
  const p = profileName?.trim();
  return p && p !== name.trim() ? p : null;
}

/** Country name in the display language from its ISO code, falling back to the server's name. */
export function countryName(code: string, fallback: string, language: string): string {
  try {
    return new Intl.DisplayNames([intlLocale(language)], { type: 'region' }).of(code.toUpperCase()) ?? fallback;
  } catch {
    return fallback;
  }
}

const dayAndMonth = (locale: string) =>
  cached(`day|${locale}`, () => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', timeZone: 'UTC' }));

/** A calendar day without its year ("12 March"), read in UTC as formatDate. */
export function formatDay(iso: string, language: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dayAndMonth(intlLocale(language)).format(date);
}

/** Two calendar days as the language writes a range ("12–15 March", "12.–15. März"). */
export function formatDayRange(from: string, until: string, language: string): string {
  const a = new Date(from);
  const b = new Date(until);
  if (Number.isNaN(a.getTime()) || Number.isNaN(b.getTime())) return `${from} – ${until}`;
  return dayAndMonth(intlLocale(language)).formatRange(a, b);
}
