import { describe, expect, it } from 'vitest';
import { loadResources } from '#shared/i18n/index.ts';
import { readCatalogues, requestLanguage, translator, urlLanguage } from './i18n';

describe('server i18n', () => {
  it('reads the same catalogues the SPA bundles', async () => {
    expect(readCatalogues()).toEqual(await loadResources());
  });

  it('translates synchronously, Portuguese in its own texts', () => {
    expect(translator('en')('profile.rates')).toBe('Rates');
    expect(translator('de')('profile.rates')).toBe('Preise');
    expect(translator('pt')('profile.rates')).toBe('Valores');
    expect(translator('de')('common:siteName')).toBeTruthy();
    expect(translator('en')('profile.views', { count: 2 })).toBe('2 views');
  });

  it('picks ?lang= first, then a German host, else English (docs/decisions/0004)', () => {
    expect(requestLanguage({ query: { lang: 'es' }, hostname: 'de.example.com' })).toBe('es');
    expect(requestLanguage({ query: {}, hostname: 'de.example.com' })).toBe('de');
    expect(requestLanguage({ query: { lang: 'fr' }, hostname: 'example.de' })).toBe('de');
    expect(requestLanguage({ hostname: 'example.com' })).toBe('en');
    expect(urlLanguage('/profile/5?lang=pt', 'example.com')).toBe('pt');
    expect(urlLanguage('/profile/5', 'www.example.de')).toBe('de');
  });
});
