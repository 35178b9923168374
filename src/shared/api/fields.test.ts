import { describe, expect, it } from 'vitest';
import { coercedId, id, MAX_ID, requiredString, text } from './fields';
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
