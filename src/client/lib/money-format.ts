// Money on screen: every amount of the API is an integer in minor units (cents) of the site currency;
// Intl turns it into the reader's notation ("€12.50", "12,50 €", Brazilian "€ 12,50" for pt).
import { intlLocale } from './format';

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(language: string, currency: string, signed: boolean): Intl.NumberFormat {
  const locale = intlLocale(language);
  const key = `${locale}|${currency}|${signed}`;
  let format = formatters.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
      });
    } catch {
      // An unknown currency code: show the number with the code rather than break the screen.
      format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formatters.set(key, format);
  }
  return format;
}

/** Digits after the decimal point of a currency (EUR 2, JPY 0): how many minor units make one. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** 1250 EUR -> "€12.50" (en-GB), "12,50 €" (de, es). `signed` adds + to credits and keeps - on debits. */
export function formatMinor(minor: number, currency: string, language: string, signed = false): string {
  const format = formatter(language, currency, signed);
  const text = format.format(minor / 10 ** minorDigits(currency));
  return format.resolvedOptions().style === 'currency' ? text : `${text} ${currency}`;
}

/** Minor units -> the major-unit text a form field shows: "12.50" in English, "12,50" in German. */
export function toMajorInput(minor: number, currency: string, language = 'en'): string {
  const digits = minorDigits(currency);
  const text = (minor / 10 ** digits).toFixed(digits);
  const comma = new Intl.NumberFormat(intlLocale(language)).format(1.5).includes(',');
  return comma ? text.replace('.', ',') : text;
}

/**
 * What a person typed in a money field ("12", "12.5", "12,50") -> minor units, or null when it is not
 * an amount with at most the currency's digits after the separator.
 */
export function parseMajorInput(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const m = /^\s*(\d{1,9})(?:[.,](\d*))?\s*$/.exec(text);
  if (!m) return null;
  const fraction = m[2] ?? '';
  if (fraction.length > digits) return null;
  return Number(m[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
}
