// Where demo advertisers live: countries with their calling code, currency and languages, weighted
// roughly by how busy such directories are there. Big cities get most profiles (see seed.ts).
import type { Language } from '#shared/constants.ts';

export interface SeedCountry {
  code: string;
  callingCode: string;
  currency: string;
  /** Units of the currency per euro, to show plausible local prices. */
  perEuro: number;
  /** Spoken languages (ISO 639-1) of a local advertiser. */
  languages: string[];
  /** UI language of the account (the site has en, de, es, pt). */
  uiLanguage: Language;
  weight: number;
  /** Cities of this country that can receive profiles (the most populous first). */
  topCities: number;
}

const c = (
  code: string,
  callingCode: string,
  currency: string,
  perEuro: number,
  languages: string[],
  uiLanguage: Language,
  weight: number,
  topCities = 6,
): SeedCountry => ({ code, callingCode, currency, perEuro, languages, uiLanguage, weight, topCities });

export const SEED_COUNTRIES: SeedCountry[] = [
  c('GB', '44', 'GBP', 0.85, ['en'], 'en', 12, 12),
  c('US', '1', 'USD', 1.1, ['en'], 'en', 12, 15),
  c('DE', '49', 'EUR', 1, ['de'], 'de', 10, 12),
  c('ES', '34', 'EUR', 1, ['es'], 'es', 7, 10),
  c('FR', '33', 'EUR', 1, ['fr'], 'en', 7, 10),
  c('IT', '39', 'EUR', 1, ['it'], 'en', 5, 8),
  c('NL', '31', 'EUR', 1, ['nl'], 'en', 4),
  c('CH', '41', 'CHF', 0.95, ['de', 'fr'], 'de', 3),
  c('AT', '43', 'EUR', 1, ['de'], 'de', 3),
  c('CA', '1', 'CAD', 1.5, ['en', 'fr'], 'en', 3, 8),
  c('AU', '61', 'AUD', 1.65, ['en'], 'en', 3, 8),
  c('BR', '55', 'BRL', 6, ['pt'], 'pt', 3, 8),
  c('BE', '32', 'EUR', 1, ['nl', 'fr'], 'en', 2),
  c('PT', '351', 'EUR', 1, ['pt'], 'pt', 2),
  c('PL', '48', 'PLN', 4.3, ['pl'], 'en', 2),
  c('AE', '971', 'AED', 4, ['ar'], 'en', 2, 3),
  c('MX', '52', 'MXN', 19, ['es'], 'es', 2),
  c('IE', '353', 'EUR', 1, ['en'], 'en', 1.5, 4),
  c('SE', '46', 'SEK', 11.5, ['sv'], 'en', 1.5),
  c('CZ', '420', 'CZK', 25, ['cs'], 'en', 1.5),
  c('GR', '30', 'EUR', 1, ['el'], 'en', 1.2),
  c('DK', '45', 'DKK', 7.5, ['da'], 'en', 1.2, 4),
  c('HU', '36', 'HUF', 390, ['hu'], 'en', 1.2, 4),
  c('SG', '65', 'SGD', 1.45, ['en', 'zh'], 'en', 1.5, 1),
  c('TH', '66', 'THB', 38, ['th'], 'en', 1.5, 4),
  c('AR', '54', 'USD', 1.1, ['es'], 'es', 1.5),
  c('CO', '57', 'COP', 4500, ['es'], 'es', 1.5),
  c('ZA', '27', 'ZAR', 20, ['en'], 'en', 1.5),
  c('TR', '90', 'EUR', 1, ['tr'], 'en', 1.5),
  c('NO', '47', 'NOK', 11.7, ['no'], 'en', 1, 4),
  c('FI', '358', 'EUR', 1, ['fi'], 'en', 1, 4),
  c('RO', '40', 'RON', 5, ['ro'], 'en', 1),
  c('NZ', '64', 'NZD', 1.8, ['en'], 'en', 1, 4),
  c('HK', '852', 'HKD', 8.5, ['zh'], 'en', 1, 1),
  c('JP', '81', 'JPY', 165, ['ja'], 'en', 1),
];

/** Cities a visitor expects to be busy; they get extra weight. Keys are `COUNTRY/slug`. */
export const FEATURED_CITIES: Record<string, number> = {
  'GB/london': 3,
  'DE/berlin': 2.5,
  'ES/madrid': 2,
  'FR/paris': 2.5,
  'US/new-york-city': 2.5,
  'ES/barcelona': 1.5,
  'DE/hamburg': 1.5,
  'DE/munich': 1.5,
  'US/los-angeles': 1.5,
  'US/miami': 2,
  'US/las-vegas': 2,
  'IT/milan': 1.5,
  'NL/amsterdam': 1.5,
  'AT/vienna': 1.5,
  'CH/zurich': 1.5,
  'CH/geneva': 1.5,
  'AE/dubai': 2,
};

/** Extra languages an advertiser may speak. */
export const EXTRA_LANGUAGES = ['en', 'fr', 'es', 'it', 'de', 'pt', 'ru'];
