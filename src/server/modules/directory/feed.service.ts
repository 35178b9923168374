// /feed: three paged lists of what is new among listed profiles (DESIGN.md "Other screens").
import { FEED_PAGE_SIZE, type FeedEntry, type FeedKind, type FeedPage } from '#shared/schemas/feed.ts';
import type { Language } from '#shared/constants.ts';
import type { AppContext } from '../../context';
import { nameLanguage, namesOfListings } from '../geo/city-names';
import { pictureOf } from '../media/media.service';
import { presentItem } from './directory.presenter';
import * as repo from './feed.repo';

const iso = (d: string | Date) => new Date(d).toISOString();

/** `lang`: the reader's, for the cities' names (docs/decisions/0604). */
export async function feed(ctx: AppContext, kind: FeedKind, page: number, lang: Language = 'en'): Promise<FeedPage> {
  const nl = nameLanguage(lang);
  const named = async (listingIds: number[]) =>
    nl ? namesOfListings(ctx.db, listingIds, nl) : new Map<number, string>();
  const offset = (page - 1) * FEED_PAGE_SIZE;
  const limit = FEED_PAGE_SIZE + 1; // one beyond the page says whether there is another
  let entries: FeedEntry[];
  if (kind === 'photos') {
    const rows = await repo.newestPhotos(ctx.db, limit, offset);
    const names = await named(rows.map((r) => r.listing_id));
    entries = rows.map((r) => ({
      key: r.photo_id,
      profile: presentItem(r, ctx.media, ctx.now(), undefined, names.get(r.listing_id)),
      photo: pictureOf(
        {
          storageKey: r.photo_key,
          variants: r.photo_variants ?? {},
          width: r.photo_width,
          height: r.photo_height,
          placeholder: r.photo_placeholder,
        },
        (key) => ctx.media.publicUrl(key),
      ),
      tour: null,
      at: iso(r.at),
    }));
  } else if (kind === 'tours') {
    const rows = await repo.newestTours(ctx.db, limit, offset, ctx.now());
    const names = await named(rows.map((r) => r.listing_id));
    entries = rows.map((r) => ({
      key: r.listing_id,
      profile: presentItem(r, ctx.media, ctx.now(), undefined, names.get(r.listing_id)),
      photo: null,
      tour: {
        city: names.get(r.listing_id) ?? r.city,
        from: r.tour_from,
        until: r.tour_until,
        // A coming tour links to the city page's "Visiting soon" (issue 27 item 4), a running one to the page.
        path: `/escorts/${r.country_slug}/${r.city_slug}${
          r.tour_starts_at && new Date(r.tour_starts_at) > ctx.now() ? '#tours-ahead' : ''
        }`,
      },
      at: iso(r.at),
    }));
  } else {
    const rows = await repo.newestVerified(ctx.db, limit, offset);
    const names = await named(rows.map((r) => r.listing_id));
    entries = rows.map((r) => ({
      key: r.user_id,
      profile: presentItem(r, ctx.media, ctx.now(), undefined, names.get(r.listing_id)),
      photo: null,
      tour: null,
      at: iso(r.at),
    }));
  }
  return { kind, data: entries.slice(0, FEED_PAGE_SIZE), page, has_more: entries.length > FEED_PAGE_SIZE };
}
