// What a page of listings shares, whichever room made it (the country and city pages, search, nearby):
// its rows as the visitor's items, the cities named in the reader's language, and its total.
import type { Language } from '#shared/constants.ts';
import { PAGE_SIZE } from '#shared/constants.ts';
import { COUNTED_TOTAL_PAGES } from '#shared/schemas/directory.ts';
import type { ProfileItem } from '#shared/schemas/directory.ts';
import type { AppContext } from '../../context';
import { nameLanguage, namesOfListings } from '../geo/city-names';
import { presentItem } from './directory.presenter';
import type { ListingRow } from './listing-rows.repo';

/**
 * Listing rows as items, their cities named in `lang` where GeoNames has a name (docs/decisions/0604).
 * `position`: the first row's place in the list (none for search and nearby).
 */
export async function presentItems(
  ctx: AppContext,
  rows: ListingRow[],
  lang: Language,
  position?: number,
): Promise<ProfileItem[]> {
  const nl = nameLanguage(lang);
  const names = nl
    ? await namesOfListings(
        ctx.db,
        rows.map((r) => r.listing_id),
        nl,
      )
    : null;
  return rows.map((r, i) =>
    presentItem(r, ctx.media, ctx.now(), position === undefined ? undefined : position + i, names?.get(r.listing_id)),
  );
}

/** Rows counted before a total says "more than" (decision 0735). */
export const COUNTED_TOTAL = COUNTED_TOTAL_PAGES * PAGE_SIZE;

/**
 * The total of a page: `counted` (up to COUNTED_TOTAL + 1) says "more than COUNTED_TOTAL" past it; an exact
 * count (`counted` undefined) is `exact`. Never less than the rows paging has shown up to this page.
 */
export function pageTotal(
  counted: number | undefined,
  exact: number,
  shown: number,
): { total: number; total_more?: true } {
  if (counted !== undefined && counted > COUNTED_TOTAL) return { total: COUNTED_TOTAL, total_more: true };
  return { total: Math.max(counted ?? exact, shown) };
}
