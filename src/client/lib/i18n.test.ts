import { describe, expect, it } from 'vitest';
import { ROUTES } from '#shared/routes.ts';
import { CATALOGUE_LANGUAGES, loadResources, type Catalogue } from '#shared/i18n/index.ts';
import { pickLanguage } from '#shared/rules/language.ts';

const at = (hostname: string, search = '') => ({ hostname, search });

describe('pickLanguage', () => {
  it('chooses German by host name', () => {
    expect(pickLanguage(at('de.example.com'))).toBe('de');
    expect(pickLanguage(at('example.de'), 'es')).toBe('de');
  });
  it('otherwise uses the user language, else English', () => {
    expect(pickLanguage(at('example.com'), 'es')).toBe('es');
    expect(pickLanguage(at('example.com'), 'pt')).toBe('pt');
    expect(pickLanguage(at('example.com'), 'fr')).toBe('en');
    expect(pickLanguage(at('example.com'))).toBe('en');
  });
  it('lets ?lang= pick the language of an indexed URL', () => {
    expect(pickLanguage(at('de.example.com', '?lang=es'))).toBe('es');
  });
  it("puts the switcher's remembered choice above host and account, below ?lang=", () => {
    expect(pickLanguage(at('de.example.com'), 'es', 'en')).toBe('en');
    expect(pickLanguage(at('example.com'), 'de', 'pt')).toBe('pt');
    expect(pickLanguage(at('example.com', '?lang=de'), null, 'es')).toBe('de');
    expect(pickLanguage(at('de.example.com'), null, 'fr')).toBe('de');
  });
});

function keys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

describe('catalogues', () => {
  it('exist for en, de, es and pt (0606)', () => {
    expect(CATALOGUE_LANGUAGES).toEqual(['de', 'en', 'es', 'pt']);
  });

  // Plural forms folded: each language has its own (Spanish "many"; catalogue.test.ts checks them).
  const folded = (catalogue: Catalogue) =>
    [...new Set(keys(catalogue).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')))].sort();

  it('have the same keys in every language', async () => {
    const resources = await loadResources();
    for (const [ns, english] of Object.entries(resources.en)) {
      const expected = folded(english);
      for (const lng of ['de', 'es', 'pt']) {
        expect(folded(resources[lng]?.[ns] ?? {}), `${lng}/${ns}`).toEqual(expected);
      }
    }
  });

  it('translate every route title', async () => {
    const resources = await loadResources();
    for (const lng of ['en', 'de', 'es']) {
      for (const route of ROUTES) expect(resources[lng].titles[route.title], `${lng} ${route.title}`).toBeTruthy();
    }
  });
});
