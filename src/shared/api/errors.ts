// The wire format of errors (spec section 8) shared by server and client.
import { z } from 'zod';
import { messageText, msg, type Message } from './messages.ts';
// People's sentences instead of Zod's defaults, wherever a shared schema is parsed.
import './zod-messages.ts';

/** 422: heading plus messages per field. */
export const ValidationErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;

/** 401, 403, 404, 429 and every other error: a message only. */
export const MessageBody = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof MessageBody>;

/** The heading of every 422. */
export const VALIDATION_MESSAGE = msg('errors.checkInput');

/** A schema's own "{label} can't be blank!", for a field whose label is not its name. */
export const blankMessage = (label: string) => messageText('auth:errors.blank', { label });

/**
 * A response of type notification raises a notice in the client (spec section 7).
 * Routes answer `{ type: 'notification', ... }` and the client shows the notification dialog.
 */
export const NotificationBody = z.object({
  type: z.literal('notification'),
  title: z.string().optional(),
  message: z.string(),
  /** The message is HTML written by our own server; without this flag it is plain text. */
  html: z.boolean().optional(),
  icon: z.enum(['success', 'error', 'warning', 'info']).optional(),
  path: z.string().optional(),
  reload: z.boolean().optional(),
});
export type NotificationBody = z.infer<typeof NotificationBody>;

/** A notification as the server builds it: its texts may still be Messages, translated at the edge. */
export type NotificationPayload = Omit<NotificationBody, 'message' | 'title'> & {
  message: string | Message;
  title?: string | Message;
};

export function notification(
  message: string | Message,
  extra: Omit<NotificationPayload, 'type' | 'message'> = {},
): NotificationPayload {
  return { type: 'notification', message, ...extra };
}
