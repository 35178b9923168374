// In-app notices (auto-topup failures, admin warnings...): GET /api/notices, POST /api/notices/read.
import { z } from 'zod';
import { id } from '../api/fields';

export const Notice = z.object({
  id: z.number(),
  /** What it is about: `auto_topup_failed`, `warning`... (for an icon). */
  kind: z.string(),
  /** In the caller's language. */
  title: z.string(),
  message: z.string(),
  /** Where the notice leads (e.g. /edit/load/12), when anywhere. */
  path: z.string().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notice = z.infer<typeof Notice>;

/** GET /api/notices: the newest 50 of the signed-in account. */
export const NoticesResponse = z.object({ data: z.array(Notice), unread: z.number() });
export type NoticesResponse = z.infer<typeof NoticesResponse>;

/** POST /api/notices/read: marks the given notices read, or all of them. */
export const MarkReadBody = z.union([
  z.strictObject({ ids: z.array(id()).min(1).max(100) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type MarkReadBody = z.infer<typeof MarkReadBody>;
export const MarkReadResponse = z.object({ unread: z.number() });
