// GET /api/share/tumblr: Tumblr's note count of one of our profile addresses, fetched by our server
// (docs/decisions/0805), so no page runs a script from Tumblr and no visitor's address reaches it.
import { z } from 'zod';
import { text } from '../api/fields';

export const TumblrCountQuery = z.strictObject({ url: text('URL', 300).min(1) });
export type TumblrCountQuery = z.infer<typeof TumblrCountQuery>;

/** null: Tumblr did not answer, or answered something else than a count. */
export const TumblrCount = z.object({ count: z.number().int().min(0).nullable() });
export type TumblrCount = z.infer<typeof TumblrCount>;
