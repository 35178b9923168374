// Comments on a profile (DESIGN.md "Other screens"): signed-in users comment when the profile's owner
// has comments on; the owner and admins delete them.
import { z } from 'zod';
import { coercedId, withoutControlCharacters } from '../api/fields';

// In constants.ts (no Zod): the profile's comment box counts with it, in the first route's code.
import { COMMENT_MAX_CHARS } from '../constants';
import { messageText } from '../api/messages';
import { blankMessage } from '../api/errors';
export { COMMENT_MAX_CHARS };
export const COMMENTS_PAGE_SIZE = 20;

export const CommentParams = z.object({
  profileId: coercedId(),
});
export const CommentIdParams = z.object({
  commentId: coercedId(),
});

export const CommentBody = z.object({
  body: withoutControlCharacters(z.string({ error: () => blankMessage('Comment') }), 'Comment')
    .trim()
    .min(1, blankMessage('Comment'))
    .max(COMMENT_MAX_CHARS, messageText('validation.commentMax', { n: COMMENT_MAX_CHARS })),
});
export type CommentBody = z.infer<typeof CommentBody>;

export const Comment = z.object({
  id: z.number(),
  profile_id: z.number(),
  /** The author's screen name; null when the author has none yet (shown as "Member"). */
  author: z.object({ id: z.number(), name: z.string().nullable() }),
  body: z.string(),
  created_at: z.string(),
  /** The viewer may delete it: owner of the profile or admin. */
  can_delete: z.boolean(),
});
export type Comment = z.infer<typeof Comment>;

export const CommentsPage = z.object({
  data: z.array(Comment),
  page: z.number(),
  has_more: z.boolean(),
  total: z.number(),
  /** The owner has comments on. When off, only the owner and admins still see the old ones. */
  enabled: z.boolean(),
  /** The viewer may post: signed in and comments on. */
  can_comment: z.boolean(),
});
export type CommentsPage = z.infer<typeof CommentsPage>;

export const CommentCreated = z.object({ data: Comment });
export const CommentDeleted = z.object({ data: z.object({ id: z.number(), deleted: z.literal(true) }) });
