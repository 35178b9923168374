import { describe, expect, it } from 'vitest';
import { formatAgo, formatDate, intlLocale, languageName } from '../views/format.ts';
import { pickLanguage } from './language.ts';

describe('Portuguese pages (docs/decisions/0606)', () => {
  it('keep pt as the page language', () => {
    expect(pickLanguage({ hostname: 'example.com', search: '?lang=pt' })).toBe('pt');
  });

  it('format dates, relative times and language names in Brazilian Portuguese, not in Spanish', () => {
    expect(intlLocale('pt')).toBe('pt-BR');
    expect(formatAgo(26 * 60, 'pt')).toBe('há 26 minutos');
    expect(formatDate('2026-03-05', 'pt')).toBe('5 de março de 2026');
    expect(languageName('pt', 'pt')).toBe('português');
    expect(languageName('en', 'pt')).toBe('inglês');
  });

  it('keep English relative times in en-GB (spec section 9)', () => {
    expect(intlLocale('en')).toBe('en-GB');
  });
});
