// i18next on the server, over the same catalogues as the SPA (src/shared/i18n/<lang>/<ns>.json).
// #shared/i18n/index.ts finds them with import.meta.glob, a Vite feature that Node run by tsx lacks,
// so the files are read here directly, once, at first use. Rendering is synchronous (renderToString),
// hence every catalogue in memory and i18next initialised without waiting.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type i18n as I18n } from 'i18next';
import { LANGUAGES, type Language } from '#shared/constants.ts';
import { FALLBACK_LANGUAGES } from '#shared/i18n/fallbacks.ts';
import { addFormatters } from '#shared/i18n/formatters.ts';
import { isLanguage, pickLanguage } from '#shared/rules/language.ts';

export const CATALOGUE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/i18n');

type Catalogue = { [key: string]: string | Catalogue };

export function readCatalogues(dir = CATALOGUE_DIR): Record<string, Record<string, Catalogue>> {
  const resources: Record<string, Record<string, Catalogue>> = {};
  for (const lng of fs.readdirSync(dir)) {
    if (!/^[a-z]{2}$/.test(lng)) continue;
    for (const file of fs.readdirSync(path.join(dir, lng))) {
      const match = /^([a-z0-9-]+)\.json$/.exec(file);
      if (!match) continue;
      (resources[lng] ??= {})[match[1]] = JSON.parse(fs.readFileSync(path.join(dir, lng, file), 'utf8')) as Catalogue;
    }
  }
  return resources;
}

let instance: I18n | undefined;

export function serverI18n(): I18n {
  if (instance) return instance;
  const resources = readCatalogues();
  const namespaces = [...new Set(Object.values(resources).flatMap((byNs) => Object.keys(byNs)))];
  const i18n = i18next.createInstance();
  void i18n.init({
    resources,
    lng: 'en',
    fallbackLng: FALLBACK_LANGUAGES,
    supportedLngs: [...LANGUAGES],
    ns: namespaces,
    defaultNS: 'common',
    // React escapes what it renders; escaping here as well would show "&amp;" to people.
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  addFormatters(i18n);
  instance = i18n;
  return i18n;
}

export type ServerTranslate = (key: string, options?: Record<string, unknown>) => string;

/** t of one language, keys relative to `ns` ("common:siteName" still reaches other namespaces). */
export function translator(lang: Language, ns = 'directory'): ServerTranslate {
  const t = serverI18n().getFixedT(lang, ns);
  return (key, options) => String(t(key, options ?? {}));
}

/** The language of a request (#shared/rules/language.ts), without a signed-in user's choice. */
export function requestLanguage(request: { query?: unknown; hostname?: string }): Language {
  const lang = (request.query as Record<string, unknown> | undefined)?.lang;
  return pickLanguage({ hostname: request.hostname, search: isLanguage(lang) ? `lang=${lang}` : '' });
}

/** Same, from a raw URL and host (the SSR fallback handler has no parsed query for client routes). */
export function urlLanguage(url: string, hostname: string | undefined): Language {
  return pickLanguage({ hostname, search: url.includes('?') ? url.slice(url.indexOf('?')) : '' });
}
