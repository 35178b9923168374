import { describe, expect, it } from 'vitest';
import { formatMinor, minorDigits, parseMajorInput, toMajorInput } from './money-format';

// Intl separates a currency from its number with a no-break space in some locales.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMinor', () => {
  it('reads minor units in the currency and the reader language', () => {
    expect(formatMinor(1250, 'EUR', 'en')).toBe('€12.50');
    expect(plain(formatMinor(1250, 'EUR', 'de'))).toBe('12,50 €');
    expect(plain(formatMinor(123456, 'EUR', 'es'))).toBe('1234,56 €');
    expect(formatMinor(500, 'GBP', 'en')).toBe('£5.00');
  });
  it('gives Portuguese readers the Brazilian notation, not the Spanish one', () => {
    expect(plain(formatMinor(123456, 'EUR', 'pt'))).toBe('€ 1.234,56');
  });
  it('knows currencies without minor units', () => {
    expect(minorDigits('JPY')).toBe(0);
    expect(formatMinor(1500, 'JPY', 'en')).toBe('JP¥1,500');
  });
  it('signs credits and debits when asked', () => {
    expect(formatMinor(1000, 'EUR', 'en', true)).toBe('+€10.00');
    expect(formatMinor(-500, 'EUR', 'en', true)).toBe('-€5.00');
    expect(formatMinor(0, 'EUR', 'en', true)).toBe('€0.00');
  });
  it('survives an unknown currency code', () => {
    expect(formatMinor(1250, 'XX1', 'en')).toBe('12.50 XX1');
  });
});

describe('money fields', () => {
  it('turn typed amounts into minor units', () => {
    expect(parseMajorInput('12', 'EUR')).toBe(1200);
    expect(parseMajorInput('12.5', 'EUR')).toBe(1250);
    expect(parseMajorInput(' 12,05 ', 'EUR')).toBe(1205);
    expect(parseMajorInput('1500', 'JPY')).toBe(1500);
  });
  it('refuse what is not an amount', () => {
    expect(parseMajorInput('12.345', 'EUR')).toBeNull();
    expect(parseMajorInput('-3', 'EUR')).toBeNull();
    expect(parseMajorInput('abc', 'EUR')).toBeNull();
    expect(parseMajorInput('', 'EUR')).toBeNull();
    expect(parseMajorInput('1.5', 'JPY')).toBeNull();
  });
  it('show minor units as a field value', () => {
    expect(toMajorInput(1000, 'EUR')).toBe('10.00');
    expect(toMajorInput(1500, 'JPY')).toBe('1500');
    expect(toMajorInput(1250, 'EUR', 'de')).toBe('12,50');
    expect(parseMajorInput(toMajorInput(1250, 'EUR', 'es'), 'EUR')).toBe(1250);
  });
});
