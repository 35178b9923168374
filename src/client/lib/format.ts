// Display rules of the spec that several screens share. The ones the profile view needs live in
// shared/views/format (the server renders that view too) and are re-exported here.
import { intlLocale } from '#shared/views/format.ts';

export {
  formatAgo,
  formatDate,
  formatMoney,
  intlLocale,
  languageName,
  locationLabel,
  telHref,
} from '#shared/views/format.ts';

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
