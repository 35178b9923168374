// The directory lists' filters (issue 27 item 1, docs/decisions/0324) as the address bar holds them and as
// one normalised form: the SPA, the server's first HTML and the answer cache's key all read them here.
import { SERVICES } from '../constants.ts';
import type { ListFilters } from '../schemas/directory.ts';
import { FILTER_AGE, PROFILE_CURRENCIES, RATE_MAX, SPOKEN_LANGUAGES } from './profile-lists.ts';

type Currency = (typeof PROFILE_CURRENCIES)[number];

/** The flags a filter switches on (true or absent). */
export const FILTER_FLAGS = ['verified', 'video', 'incall', 'outcall', 'available'] as const;
export type FilterFlag = (typeof FILTER_FLAGS)[number];

/**
 * The same filters, one form: empty lists and absent values dropped, lists sorted without repeats, the
 * currency only with a price. Two filters that find the same profiles in the same way are equal here.
 */
export function normalizeFilters(f: ListFilters | undefined): ListFilters {
  if (!f) return {};
  const out: ListFilters = {};
  if (f.age_min !== undefined) out.age_min = f.age_min;
  if (f.age_max !== undefined) out.age_max = f.age_max;
  if (f.price_min !== undefined) out.price_min = f.price_min;
  if (f.price_max !== undefined) out.price_max = f.price_max;
  if ((f.price_min !== undefined || f.price_max !== undefined) && f.currency) out.currency = f.currency;
  if (f.services?.length) out.services = [...new Set(f.services)].sort();
  if (f.languages?.length) out.languages = [...new Set(f.languages)].sort();
  for (const k of FILTER_FLAGS) if (f[k]) out[k] = true;
  return out;
}

export const hasFilters = (f: ListFilters | undefined) => Object.keys(normalizeFilters(f)).length > 0;

/** How many separate things the filter narrows by (a range counts once): the filter button's badge. */
export function filterCount(f: ListFilters | undefined): number {
  const n = normalizeFilters(f);
  return (
    (n.age_min !== undefined || n.age_max !== undefined ? 1 : 0) +
    (n.price_min !== undefined || n.price_max !== undefined ? 1 : 0) +
    (n.services ? 1 : 0) +
    (n.languages ? 1 : 0) +
    FILTER_FLAGS.filter((k) => n[k]).length
  );
}

/** The normalised filter as a short stable text: the answer cache's key part ('' without filters). */
export const filterKey = (f: ListFilters | undefined) => toQuery(normalizeFilters(f)).toString();

// Address bar: ?age=25-35&price=100-300&currency=GBP&services=gfe,massage&speaks=en,fr&verified=1...
// (`lang` is the page's language already, so spoken languages are `speaks`).

/** The filters in a page address's query (normalised; other keys, such as lang, kept by the caller). */
export function toQuery(f: ListFilters): URLSearchParams {
  const q = new URLSearchParams();
  const range = (a?: number, b?: number) => `${a ?? ''}-${b ?? ''}`;
  if (f.age_min !== undefined || f.age_max !== undefined) q.set('age', range(f.age_min, f.age_max));
  if (f.price_min !== undefined || f.price_max !== undefined) {
    q.set('price', range(f.price_min, f.price_max));
    if (f.currency) q.set('currency', f.currency);
  }
  if (f.services?.length) q.set('services', f.services.join(','));
  if (f.languages?.length) q.set('speaks', f.languages.join(','));
  for (const k of FILTER_FLAGS) if (f[k]) q.set(k, '1');
  return q;
}

/** The keys of a page address that are filters (the rest, such as q or lang, belong to the page). */
export const FILTER_QUERY_KEYS = ['age', 'price', 'currency', 'services', 'speaks', ...FILTER_FLAGS] as const;

const whole = (s: string | undefined, min: number, max: number) => {
  if (!s || !/^\d{1,7}$/.test(s)) return undefined;
  const n = Number(s);
  return n >= min && n <= max ? n : undefined;
};

/**
 * The filters a page address names, read leniently: an address is typed and shared by people, so a value
 * this site does not know is left out rather than refused (the API's body, in contrast, is strict). The
 * result is normalised, and a reversed range is put the right way round.
 */
export function fromQuery(q: URLSearchParams, fallbackCurrency?: string): ListFilters {
  const f: ListFilters = {};
  const range = (v: string | null, min: number, max: number): [number?, number?] => {
    const [a, b] = (v ?? '').split('-');
    const lo = whole(a, min, max);
    const hi = whole(b, min, max);
    return lo !== undefined && hi !== undefined && lo > hi ? [hi, lo] : [lo, hi];
  };
  [f.age_min, f.age_max] = range(q.get('age'), FILTER_AGE.min, FILTER_AGE.max);
  [f.price_min, f.price_max] = range(q.get('price'), 0, RATE_MAX);
  if (f.price_min !== undefined || f.price_max !== undefined) {
    const c = (q.get('currency') ?? fallbackCurrency ?? '').toUpperCase();
    if ((PROFILE_CURRENCIES as readonly string[]).includes(c)) f.currency = c as Currency;
    else [f.price_min, f.price_max] = [undefined, undefined];
  }
  const list = <T extends string>(v: string | null, known: readonly T[]) =>
    (v ?? '').split(',').filter((s): s is T => (known as readonly string[]).includes(s));
  f.services = list(q.get('services'), SERVICES);
  f.languages = list(q.get('speaks'), SPOKEN_LANGUAGES);
  for (const k of FILTER_FLAGS) if (['1', 'true'].includes(q.get(k) ?? '')) f[k] = true;
  return normalizeFilters(f);
}

/**
 * The currency a country's list is priced in by default (docs/decisions/0324): its own where profiles may
 * keep rates in it, else the euro. A visitor may pick another.
 */
const COUNTRY_CURRENCY: Record<string, Currency> = {
  GB: 'GBP',
  US: 'USD',
  CH: 'CHF',
  LI: 'CHF',
  CA: 'CAD',
  AU: 'AUD',
  NZ: 'NZD',
  BR: 'BRL',
  MX: 'MXN',
  AR: 'ARS',
  CO: 'COP',
  CL: 'CLP',
  PE: 'PEN',
  PL: 'PLN',
  CZ: 'CZK',
  HU: 'HUF',
  RO: 'RON',
  SE: 'SEK',
  NO: 'NOK',
  DK: 'DKK',
  TR: 'TRY',
  AE: 'AED',
  SA: 'SAR',
  QA: 'QAR',
  IL: 'ILS',
  ZA: 'ZAR',
  TH: 'THB',
  SG: 'SGD',
  HK: 'HKD',
  MY: 'MYR',
  PH: 'PHP',
  ID: 'IDR',
  IN: 'INR',
  JP: 'JPY',
  KR: 'KRW',
  CN: 'CNY',
  TW: 'TWD',
};
export const countryCurrency = (countryCode: string | undefined): Currency =>
  (countryCode && COUNTRY_CURRENCY[countryCode.toUpperCase()]) || 'EUR';
