import { describe, expect, it } from 'vitest';
import { itemLocation } from './listing-item.ts';

describe('itemLocation', () => {
  it('shows the home city with the home area at home', () => {
    expect(itemLocation({ kind: 'home', city: 'London', place: 'Mayfair' })).toEqual({
      on_tour: false,
      city: 'London',
      place: 'Mayfair',
    });
  });
  it('shows only the tour city in another location, never the home area', () => {
    expect(itemLocation({ kind: 'additional', city: 'Leeds', place: 'Mayfair' })).toEqual({
      on_tour: true,
      city: 'Leeds',
      place: null,
    });
  });
});
