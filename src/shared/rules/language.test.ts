import { describe, expect, it } from 'vitest';
import { formatAgo, formatDate, intlLocale, languageName } from '../views/format.ts';
import { pickLanguage, textLanguage } from './language.ts';

describe('Portuguese pages', () => {
  it('keep pt as the page language but read the Spanish texts', () => {
    expect(pickLanguage({ hostname: 'example.com', search: '?lang=pt' })).toBe('pt');
    expect(textLanguage('pt')).toBe('es');
    expect(textLanguage('de')).toBe('de');
  });

  it('format dates, relative times and language names as the Spanish texts do, not in Portuguese', () => {
    expect(intlLocale('pt')).toBe('es');
    expect(formatAgo(26 * 60, 'pt')).toBe(formatAgo(26 * 60, 'es'));
    expect(formatAgo(26 * 60, 'pt')).toMatch(/^hace 26 minutos$/);
    expect(formatDate('2026-03-05', 'pt')).toBe(formatDate('2026-03-05', 'es'));
    expect(languageName('pt', 'pt')).toBe('portugués');
    expect(languageName('en', 'pt')).toBe('inglés');
  });

  it('keep English relative times in en-GB (spec section 9)', () => {
    expect(intlLocale('en')).toBe('en-GB');
  });
});
