// Which language a page speaks (spec section 1, DESIGN.md "Languages", docs/decisions/0004). One rule
// for the SPA and the server: ?lang= first, then the host (German for de.* and *.de), then the signed-in
// user's language, else English. Every language has its own catalogue (Portuguese: Brazilian, 0606).
import { LANGUAGES, type Language } from '../constants.ts';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** German is chosen by host name: de.example.com, example.de (a port is ignored). */
export function hostLanguage(hostname: string | undefined): Language | null {
  const host = (hostname ?? '').toLowerCase().replace(/:\d+$/, '');
  return host.startsWith('de.') || host.endsWith('.de') ? 'de' : null;
}

/** ?lang=de|es|pt of a query string ("?a=1&lang=de" or "a=1&lang=de"). */
export function queryLanguage(search: string): Language | null {
  const lang = new URLSearchParams(search).get('lang');
  return isLanguage(lang) ? lang : null;
}

/**
 * @param chosen the language picked with the menu's switcher on this device (docs/decisions/0601): a
 *   person's explicit choice outranks the host and the account, never an indexed URL's ?lang=.
 */
export function pickLanguage(
  location: { hostname?: string; search: string },
  userLanguage?: string | null,
  chosen?: string | null,
): Language {
  return (
    queryLanguage(location.search) ??
    (isLanguage(chosen) ? chosen : null) ??
    hostLanguage(location.hostname) ??
    (isLanguage(userLanguage) ? userLanguage : 'en')
  );
}
