// For component tests (never imported by the app): i18next over the real catalogues, without a fallback
// language, so a missing text shows up as its key instead of English; and static rendering inside it.
import i18next, { type i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { loadResources } from '#shared/i18n/index.ts';
import { addFormatters } from '#shared/i18n/formatters.ts';

export async function testI18n(namespaces: string[]): Promise<I18n> {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    resources: await loadResources(),
    lng: 'en',
    fallbackLng: false,
    ns: namespaces,
    defaultNS: namespaces[0],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  addFormatters(i18n);
  return i18n;
}

/** The element's HTML, rendered with `i18n` as its translator. */
export function renderWith(i18n: I18n, element: ReactElement): string {
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n }, element));
}
