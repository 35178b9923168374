// The search page's head says how many profiles were found: exactly, or "more than" when the total is a
// floor (decision 0735: a search counts up to COUNTED_TOTAL_PAGES pages), in each language.
import i18next, { type i18n as I18n } from 'i18next';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResources } from '../i18n/index';
import { SearchHeadView } from './directory-view';

let i18n: I18n;
beforeAll(async () => {
  // No fallback language: a missing text would show as its key, not as English.
  i18n = i18next.createInstance();
  await i18n.init({ resources: await loadResources(), lng: 'en', fallbackLng: false, ns: ['directory'] });
});

const head = (lng: string, total: number, more?: boolean) =>
  renderToStaticMarkup(
    createElement(SearchHeadView, { q: 'massage', valid: true, total, more, t: i18n.getFixedT(lng, 'directory') }),
  ).replace(/<[^>]+>/g, ' ');

describe('SearchHeadView total', () => {
  it.each([
    ['en', '7 profiles found', 'More than 120 profiles found'],
    ['de', '7 Profile gefunden', 'Mehr als 120 Profile gefunden'],
    ['es', '7 perfiles encontrados', 'Más de 120 perfiles encontrados'],
    ['pt', '7 perfis encontrados', 'Mais de 120 perfis encontrados'],
  ])('says an exact total and a floor apart in %s', (lng, exact, floor) => {
    expect(head(lng, 7)).toContain(exact);
    expect(head(lng, 7)).not.toContain(floor.split(' ')[0] + ' ');
    expect(head(lng, 120, true)).toContain(floor);
  });
});
