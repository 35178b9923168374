// How a list item names its place (spec section 2, "Profile list item location label"; DESIGN.md
// "Directory and position"). An item stands for one listing: at home it shows the home city and the
// home area ("London - Mayfair"); in an additional location it shows that city only, never the home area.
// A dated tour (docs/decisions/0403) is "on tour" only while it runs, with its dates, and announced
// before it starts ("visiting from"); its listing ends with its last day, so there is no "after". An
// additional location without dates is on tour for as long as it is listed (nothing to time).
export interface ListingPlace {
  kind: 'home' | 'additional';
  /** Name of the listing's city. */
  city: string | null;
  /** The profile's home area (free text). */
  place: string | null;
  tour_from?: string | null;
  tour_until?: string | null;
  /** The tour's first moment (its first day's midnight in the city), when it has a first day. */
  tour_starts_at?: Date | string | null;
}

/** A dated tour as a card shows it: coming (not started at `now`) or running. */
export interface TourOnCard {
  state: 'coming' | 'now';
  from: string | null;
  until: string | null;
}

export function tourOnCard(listing: ListingPlace, now: Date): TourOnCard | null {
  const from = listing.tour_from ?? null;
  const until = listing.tour_until ?? null;
  if (listing.kind !== 'additional' || (!from && !until)) return null;
  const startsAt = listing.tour_starts_at ? new Date(listing.tour_starts_at).getTime() : null;
  return { state: startsAt !== null && now.getTime() < startsAt ? 'coming' : 'now', from, until };
}

export function itemLocation(
  listing: ListingPlace,
  /** The server's clock (the app's ctx.now()): the same answer whoever reads it. */
  now: Date,
): { on_tour: boolean; tour: TourOnCard | null; city: string | null; place: string | null } {
  const additional = listing.kind === 'additional';
  const tour = tourOnCard(listing, now);
  return {
    on_tour: additional && tour?.state !== 'coming',
    tour,
    city: listing.city,
    place: additional ? null : listing.place,
  };
}
