import { describe, expect, it } from 'vitest';
import { formatAgo, locationLabel, secondaryName, telHref } from './format';

describe('locationLabel', () => {
  it('joins city and place when both are present and different', () => {
    expect(locationLabel('London', 'Soho')).toBe('London - Soho');
  });
  it('shows one of them when they are equal or one is missing', () => {
    expect(locationLabel('London', 'London')).toBe('London');
    expect(locationLabel('London', null)).toBe('London');
    expect(locationLabel(null, 'Soho')).toBe('Soho');
    expect(locationLabel('  ', 'Soho')).toBe('Soho');
  });
  it('falls back to a dash', () => {
    expect(locationLabel(null, undefined)).toBe('-');
  });
});

describe('secondaryName', () => {
  it('is shown only when present and different', () => {
    expect(secondaryName('Anna', 'Anna')).toBeNull();
    expect(secondaryName('Anna', null)).toBeNull();
    expect(secondaryName('Anna', 'Anna B.')).toBe('Anna B.');
  });
});

describe('telHref', () => {
  it('removes spaces', () => {
    expect(telHref('+44 20 7946 0000')).toBe('tel:+442079460000');
  });
});

describe('formatAgo', () => {
  it('uses the largest fitting unit', () => {
    expect(formatAgo(3 * 3600, 'en')).toBe('3 hours ago');
    expect(formatAgo(2 * 86400, 'en')).toBe('2 days ago');
  });
});
