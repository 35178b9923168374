// Days left of a listing (issue 23 item 4; docs/decisions/0403): the day it is read counts, so 30 days
// bought say 30, a tour of 27-30 November bought on the 27th says 4, and the last day says 1.
import { describe, expect, it } from 'vitest';
import { daysLeft, lastPaidDay, paidUntilAfter, tourMoments } from './tour-dates';

const DAY_MS = 86_400_000;
const at = (iso: string) => new Date(iso);

describe('daysLeft', () => {
  it('says 30 right after buying 30 days, at any hour, and until a whole day of them has passed', () => {
    for (const now of [at('2026-11-27T09:41:00Z'), at('2026-11-27T00:00:01Z'), at('2026-11-27T23:59:00Z')]) {
      const paidUntil = paidUntilAfter(null, 30, now);
      expect(daysLeft(paidUntil, now, 'Europe/Berlin')).toBe(30);
      expect(daysLeft(paidUntil, new Date(now.getTime() + DAY_MS - 1000), 'Europe/Berlin')).toBe(30);
      expect(daysLeft(paidUntil, new Date(now.getTime() + DAY_MS), 'Europe/Berlin')).toBe(29);
      // Its last hours: 1 day left; at its end: 0.
      expect(daysLeft(paidUntil, new Date(paidUntil.getTime() - 3_600_000), 'Europe/Berlin')).toBe(1);
      expect(daysLeft(paidUntil, paidUntil, 'Europe/Berlin')).toBe(0);
    }
  });

  it('says 30 across a change of summer time too (the paid days are 24-hour days)', () => {
    // Bought on 10 March in Berlin, before the clocks go forward on 29 March (and in New York on 8 March).
    const now = at('2026-03-10T10:00:00Z');
    const paidUntil = paidUntilAfter(null, 30, now);
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Sydney'])
      expect(daysLeft(paidUntil, now, zone)).toBe(30);
  });

  it('a tour of 27-30 November bought on the 27th has 4 days left, whatever the hour, and 1 on the 30th', () => {
    const zone = 'Europe/Berlin';
    const bought = at('2026-11-27T09:00:00Z');
    const { expiresAt } = tourMoments(
      { from: '2026-11-27', until: '2026-11-30' },
      { paidUntil: paidUntilAfter(null, 30, bought), timezone: zone },
    );
    expect(expiresAt.toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect(lastPaidDay(expiresAt, zone)).toBe('2026-11-30');
    // 27 November at 00:30, 10:00 and 23:30 in Berlin.
    for (const now of ['2026-11-26T23:30:00Z', bought.toISOString(), '2026-11-27T22:30:00Z'])
      expect(daysLeft(expiresAt, at(now), zone)).toBe(4);
    expect(daysLeft(expiresAt, at('2026-11-29T23:30:00Z'), zone)).toBe(1);
    expect(daysLeft(expiresAt, expiresAt, zone)).toBe(0);
  });

  it("counts a tour's days in the city's calendar, across a change of summer time and west of UTC", () => {
    // Berlin moves its clocks forward in the night to 29 March 2026: a 23-hour day.
    const berlin = tourMoments(
      { from: '2026-03-28', until: '2026-03-30' },
      { paidUntil: at('2026-04-20T00:00:00Z'), timezone: 'Europe/Berlin' },
    ).expiresAt;
    expect(daysLeft(berlin, at('2026-03-28T22:30:00Z'), 'Europe/Berlin')).toBe(3); // 28 March, 23:30
    expect(daysLeft(berlin, at('2026-03-28T23:30:00Z'), 'Europe/Berlin')).toBe(2); // 29 March, 00:30
    // And back in the night to 25 October: a 25-hour day.
    const autumn = tourMoments(
      { from: '2026-10-25', until: '2026-10-27' },
      { paidUntil: at('2026-11-20T00:00:00Z'), timezone: 'Europe/Berlin' },
    ).expiresAt;
    expect(daysLeft(autumn, at('2026-10-24T22:30:00Z'), 'Europe/Berlin')).toBe(3); // 25 October, 00:30
    // Chicago: its midnight is 06:00 UTC; the last day is its own 30 November.
    const chicago = tourMoments(
      { from: '2026-11-27', until: '2026-11-30' },
      { paidUntil: at('2026-12-20T00:00:00Z'), timezone: 'America/Chicago' },
    ).expiresAt;
    expect(lastPaidDay(chicago, 'America/Chicago')).toBe('2026-11-30');
    expect(daysLeft(chicago, at('2026-11-28T04:00:00Z'), 'America/Chicago')).toBe(4); // 27th, 22:00
  });
});
