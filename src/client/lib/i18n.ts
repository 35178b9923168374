// i18next for the client. Catalogues load lazily per language and namespace through a tiny
// backend over #shared/i18n, so adding a namespace is adding JSON files.
import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadCatalogue } from '#shared/i18n/index.ts';
import { addFormatters } from '#shared/i18n/formatters.ts';
import { LANGUAGES, type Language } from '#shared/constants.ts';
import { pickLanguage, queryLanguage } from '#shared/rules/language.ts';

export const i18n = i18next.createInstance();

const catalogueBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, callback) {
    // A language without a file for this namespace yields an empty catalogue (the catalogue test keeps
    // every language complete).
    loadCatalogue(lng, ns).then(
      (catalogue) => callback(null, catalogue ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

let started: Promise<void> | undefined;

/** Starts i18n once; every caller awaits the same start-up. */
export function initI18n(): Promise<void> {
  return (started ??= start());
}

/**
 * The language the app starts in. The server rendered a signed-in user's page in her saved language (<html lang>,
 * 0605): start in it, no switch.
 */
function startLanguage(): string {
  return pickLanguage(window.location, document.documentElement.lang || null, chosenLanguage());
}

/**
 * Starts downloading these catalogues of the current language (the start one while i18n starts) at once:
 * a section's catalogue no longer waits for the common ones to arrive before it is asked for, one round
 * trip less before a first screen (docs/decisions/0712). i18next's own request later finds it loaded.
 */
export function preloadCatalogues(namespaces: string[]): void {
  const lng = i18n.isInitialized ? i18n.language : startLanguage();
  for (const ns of namespaces) loadCatalogue(lng, ns).catch(() => undefined);
}

async function start(): Promise<void> {
  const lng = startLanguage();
  await i18n
    .use(catalogueBackend)
    .use(initReactI18next)
    .init({
      lng,
      // Only the page's language is loaded: every catalogue holds every key and every plural form of its
      // language (src/shared/i18n/catalogue.test.ts), so a fallback would only download English beside
      // German or Spanish: three scripts more on a first route (docs/decisions/0712).
      fallbackLng: false,
      supportedLngs: [...LANGUAGES],
      ns: ['common', 'titles'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  addFormatters(i18n);
  syncDocumentLanguage();
  i18n.on('languageChanged', syncDocumentLanguage);
}

/** Called once the user data arrives: switches to the user's language unless the host fixed one. */
export async function applyUserLanguage(userLanguage: string | null | undefined): Promise<void> {
  const next = pickLanguage(window.location, userLanguage, chosenLanguage());
  if (next !== i18n.language) await i18n.changeLanguage(next);
}

const CHOICE_KEY = 'language';

/** The language picked with the menu's switcher on this device, if any. */
export function chosenLanguage(): string | null {
  try {
    return window.localStorage.getItem(CHOICE_KEY);
  } catch {
    return null; // storage blocked: no remembered choice
  }
}

/** The switcher: remembers the choice on this device and shows it at once (an indexed ?lang= still wins). */
export async function chooseLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(CHOICE_KEY, language);
  } catch {
    // storage blocked: the choice lasts for this page
  }
  const next = queryLanguage(window.location.search) ?? language;
  if (next !== i18n.language) await i18n.changeLanguage(next);
}

/** The language the page's URL, choice, host and account make (the switcher's value). */
export function displayedLanguage(userLanguage?: string | null): Language {
  // Until the user data arrives, the page's own language stands for the account's: the server rendered a
  // signed-in page in it (0605), and the switcher must not say English over a Spanish page meanwhile.
  return pickLanguage(window.location, userLanguage ?? (document.documentElement.lang || null), chosenLanguage());
}

function syncDocumentLanguage(): void {
  document.documentElement.lang = i18n.language;
}
