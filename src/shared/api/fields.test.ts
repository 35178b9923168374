import { describe, expect, it } from 'vitest';
import { AuditLogBody } from '../schemas/admin';
import { AddToCartBody } from '../schemas/money';
import { TourDatesBody } from '../schemas/profile-edit';
import { coercedId, id, isoDay, MAX_ID, requiredString, text } from './fields';
import { messageText } from './messages';

describe('shared field builders', () => {
  it('bound ids to PostgreSQL integers', () => {
    expect(id().safeParse(MAX_ID).success).toBe(true);
    for (const bad of [MAX_ID + 1, 2 ** 53, 0, -1, 1.5, '12'])
      expect(id().safeParse(bad).success, String(bad)).toBe(false);
    expect(coercedId().safeParse('12').data).toBe(12);
    for (const bad of [String(MAX_ID + 1), '9999999999', 'abc', ''])
      expect(coercedId().safeParse(bad).success, bad).toBe(false);
    expect(id("Media can't be blank!").safeParse(undefined).error?.issues[0].message).toBe("Media can't be blank!");
  });

  it('refuse control characters in text but keep tab and line breaks', () => {
    const field = text('About', 100);
    for (const c of ['\u0000', '\u0007', '\u001b', '\u007f', '\u000b'])
      expect(field.safeParse(`a${c}b`).error?.issues[0].message).toBe(
        messageText('validation.controlCharacters', { label: 'About' }),
      );
    expect(field.parse('a\tb\r\nc')).toBe('a\tb\r\nc');
    expect(requiredString('Login').safeParse('\u0000').success).toBe(false);
    expect(requiredString('Login').parse('  anna  ')).toBe('anna');
  });
});

describe('days the API takes (issue 42 item 7)', () => {
  it('lie between 1900-01-01 and 2999-12-31 in every date field: audit filters, cart tours, tour dates, statements', () => {
    const day = isoDay();
    for (const ok of ['1900-01-01', '2026-12-07', '2999-12-31']) expect(day.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['0000-01-01', '0001-01-01', '1899-12-31', '3000-01-01', '9999-12-31', '2026-02-30'])
      expect(day.safeParse(bad).success, bad).toBe(false);
    const tour = { uid: 'additional_location', city_id: 1 };
    expect(AddToCartBody.safeParse({ ...tour, from: '0001-01-01' }).success).toBe(false);
    expect(AddToCartBody.safeParse({ ...tour, from: '2026-12-10', until: '2026-12-12' }).success).toBe(true);
    expect(AuditLogBody.safeParse({ until: '9999-12-31' }).success).toBe(false);
    expect(TourDatesBody.safeParse({ listing_id: 1, from: '0000-01-01', until: null }).success).toBe(false);
  });
});
