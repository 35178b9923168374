import { describe, expect, it } from 'vitest';
import { dateTimeIn, weekdayIn, weekdayName } from './weekdays';

describe('weekdays', () => {
  it('names ISO weekdays in the reader language', () => {
    expect(weekdayName(1, 'en')).toBe('Monday');
    expect(weekdayName(7, 'en', 'short')).toBe('Sun');
    expect(weekdayName(4, 'de')).toBe('Donnerstag');
    expect(weekdayName(3, 'es')).toBe('miércoles');
  });
  it("reads an instant in the profile city's zone", () => {
    // 23:30 UTC on a Wednesday is already Thursday in Berlin (winter, UTC+1).
    expect(weekdayIn('2026-01-07T23:30:00Z', 'Europe/Berlin', 'en')).toBe('Thursday');
    expect(weekdayIn('2026-01-07T23:30:00Z', 'Europe/London', 'en')).toBe('Wednesday');
    expect(dateTimeIn('2026-01-07T23:30:00Z', 'Europe/Berlin', 'en')).toContain('00:30');
  });
});
