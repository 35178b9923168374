// /feed (DESIGN.md "Other screens"): the newest verified profiles, new photos and new tours, each its
// own paged list (GET /api/directory/feed/{kind}?page=).
import { z } from 'zod';
import { Picture } from './media';
import { ProfileItem } from './directory';
import { messageText } from '../api/messages';

export const FEED_KINDS = ['profiles', 'photos', 'tours'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];
export const FEED_PAGE_SIZE = 12;

export const FeedParams = z.strictObject({
  kind: z.enum(FEED_KINDS, { error: () => messageText('validation.feedChoice') }),
});

export const FeedEntry = z.object({
  /** Unique within its list: profile id, media id or listing id. */
  key: z.number(),
  profile: ProfileItem,
  /** New photos: the photo itself. */
  photo: Picture.nullable(),
  /** New tours: the tour's dates (either may be open). */
  tour: z
    .object({
      city: z.string(),
      from: z.string().nullable(),
      until: z.string().nullable(),
      /** The city page (with `#tours-ahead` while the tour is still to come). */
      path: z.string(),
    })
    .nullable(),
  /** When it happened (verified, uploaded, tour added), ISO 8601. */
  at: z.string(),
});
export type FeedEntry = z.infer<typeof FeedEntry>;

export const FeedPage = z.object({
  kind: z.enum(FEED_KINDS),
  data: z.array(FeedEntry),
  page: z.number(),
  has_more: z.boolean(),
});
export type FeedPage = z.infer<typeof FeedPage>;
