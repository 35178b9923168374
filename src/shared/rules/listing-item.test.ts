import { describe, expect, it } from 'vitest';
import { itemLocation } from './listing-item.ts';

const NOW = new Date('2026-03-10T12:00:00Z');

describe('itemLocation', () => {
  it('shows the home city with the home area at home', () => {
    expect(itemLocation({ kind: 'home', city: 'London', place: 'Mayfair' }, NOW)).toEqual({
      on_tour: false,
      tour: null,
      city: 'London',
      place: 'Mayfair',
    });
  });
  it('shows only the tour city in another location, never the home area', () => {
    expect(itemLocation({ kind: 'additional', city: 'Leeds', place: 'Mayfair' }, NOW)).toEqual({
      on_tour: true,
      tour: null,
      city: 'Leeds',
      place: null,
    });
  });
  it('announces a dated tour before its first day and shows it on tour, with its dates, from then on', () => {
    const berlin = {
      kind: 'additional' as const,
      city: 'Berlin',
      place: null,
      tour_from: '2026-03-12',
      tour_until: '2026-03-15',
      // Midnight in Berlin (UTC+1 in March).
      tour_starts_at: '2026-03-11T23:00:00.000Z',
    };
    expect(itemLocation(berlin, NOW)).toMatchObject({
      on_tour: false,
      tour: { state: 'coming', from: '2026-03-12', until: '2026-03-15' },
    });
    expect(itemLocation(berlin, new Date('2026-03-11T22:59:59Z')).on_tour).toBe(false);
    expect(itemLocation(berlin, new Date('2026-03-11T23:00:00Z'))).toMatchObject({
      on_tour: true,
      tour: { state: 'now', from: '2026-03-12', until: '2026-03-15' },
    });
  });
  it('a tour with only a last day runs from the start', () => {
    const leeds = { kind: 'additional' as const, city: 'Leeds', place: null, tour_until: '2026-03-15' };
    expect(itemLocation(leeds, NOW)).toMatchObject({ on_tour: true, tour: { state: 'now', from: null } });
  });
});
