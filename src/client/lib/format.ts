// Display rules of the spec that several screens share.
import { RELATIVE_TIME_LOCALE } from '#shared/constants';

/** Spec section 2: "city - place" when both are present and different, else whichever is present, else "-". */
export function locationLabel(city: string | null | undefined, place: string | null | undefined): string {
  const c = city?.trim();
  const p = place?.trim();
  if (c && p && c.toLowerCase() !== p.toLowerCase()) return `${c} - ${p}`;
  return c || p || '-';
}

/** The profile name in small text under an item: only when shown (non-empty) and different from the name. */
export function secondaryName(name: string, profileName: string | null | undefined): string | null {
  const p = profileName?.trim();
  return p && p !== name.trim() ? p : null;
}

/** Spec section 2: a tap-to-call link with the spaces removed. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/\s+/g, '')}`;
}

/** Locale for Intl: English uses the spec's en-GB (relative times, dates); others their own. */
export function intlLocale(language: string): string {
  return language === 'en' ? RELATIVE_TIME_LOCALE : language;
}

export function formatMoney(amount: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(intlLocale(language), {
      style: 'currency',
      currency,
      maximumFractionDigits: 0,
    }).format(amount);
  } catch {
    // An unknown currency code must not break the profile page.
    return `${amount} ${currency}`;
  }
}

export function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(intlLocale(language), { day: 'numeric', month: 'long', year: 'numeric' }).format(date);
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

/** "3 hours ago" for a duration in seconds. */
export function formatAgo(seconds: number, language: string): string {
  const rtf = new Intl.RelativeTimeFormat(intlLocale(language), { numeric: 'auto' });
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
    return new Intl.DisplayNames([intlLocale(language)], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Country name in the display language from its ISO code, falling back to the server's name. */
export function countryName(code: string, fallback: string, language: string): string {
  try {
    return new Intl.DisplayNames([intlLocale(language)], { type: 'region' }).of(code.toUpperCase()) ?? fallback;
  } catch {
    return fallback;
  }
}
