// How a list item names its place (spec section 2, "Profile list item location label"; DESIGN.md
// "Directory and position"). An item stands for one listing: at home it shows the home city and the
// home area ("London - Mayfair"); in an additional location it is on tour and shows that city only,
// never the home area.
export interface ListingPlace {
  kind: 'home' | 'additional';
  /** Name of the listing's city. */
  city: string | null;
  /** The profile's home area (free text). */
  place: string | null;
}

export function itemLocation(listing: ListingPlace): { on_tour: boolean; city: string | null; place: string | null } {
  const onTour = listing.kind === 'additional';
  return { on_tour: onTour, city: listing.city, place: onTour ? null : listing.place };
}
