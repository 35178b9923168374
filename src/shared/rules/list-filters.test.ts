import { describe, expect, it } from 'vitest';
import { ListFilters } from '../schemas/directory.ts';
import { countryCurrency, filterCount, filterKey, fromQuery, normalizeFilters, toQuery } from './list-filters.ts';

describe('list filters in the address bar', () => {
  it('round-trips a filter through the query string, normalised', () => {
    const f = {
      age_min: 25,
      age_max: 35,
      price_min: 100,
      price_max: 300,
      currency: 'GBP' as const,
      services: ['massage' as const, 'gfe' as const, 'gfe' as const],
      languages: ['fr' as const, 'en' as const],
      verified: true as const,
      available: true as const,
    };
    const q = toQuery(normalizeFilters(f));
    expect(q.toString()).toBe(
      'age=25-35&price=100-300&currency=GBP&services=gfe%2Cmassage&speaks=en%2Cfr&verified=1&available=1',
    );
    expect(fromQuery(q)).toEqual(normalizeFilters(f));
    expect(ListFilters.safeParse(fromQuery(q)).success).toBe(true);
    expect(filterCount(f)).toBe(6);
  });

  it('reads a typed address leniently and never yields what the API refuses', () => {
    const read = (s: string, cur?: string) => fromQuery(new URLSearchParams(s), cur);
    expect(read('age=40-25&services=gfe,juggling&speaks=xx&video=yes&incall=1')).toEqual({
      age_min: 25,
      age_max: 40,
      services: ['gfe'],
      incall: true,
    });
    expect(read('age=12-200')).toEqual({});
    expect(read('price=-100')).toEqual({});
    expect(read('price=100-')).toEqual({});
    expect(read('price=100-', 'CHF')).toEqual({ price_min: 100, currency: 'CHF' });
    expect(read('price=-100&currency=xxx')).toEqual({});
    expect(read('currency=GBP')).toEqual({});
    for (const s of ['age=17-99999999', 'price=1e3-2', 'services=,,', 'q=anna&lang=de'])
      expect(ListFilters.safeParse(read(s)).success).toBe(true);
  });

  it('keys equal filters alike, and names a list currency', () => {
    expect(filterKey({ services: ['gfe', 'bdsm'] })).toBe(filterKey({ services: ['bdsm', 'gfe', 'gfe'] }));
    expect(filterKey({ services: [] })).toBe('');
    expect(filterKey(undefined)).toBe('');
    expect(countryCurrency('GB')).toBe('GBP');
    expect(countryCurrency('de')).toBe('EUR');
    expect(countryCurrency(undefined)).toBe('EUR');
  });
});
