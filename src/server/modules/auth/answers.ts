// What the auth and account routes hand to Fastify. A notification's texts are still Messages (keys of
// the messages catalogue) when the route returns it: app.ts's preSerialization hook turns them into the
// caller's sentences, and only then does the route's response schema (NotificationResponse) check the
// body and drop what it does not name. The type says what goes out on the wire.
import type { NotificationBody, NotificationPayload } from '#shared/api/errors.ts';
import type { FastifyRequest } from 'fastify';
import { KNOWN_DEVICE_COOKIE, type ClientInfo } from './known-devices';

export const sent = (answer: NotificationPayload): NotificationBody => answer as NotificationBody;

/** The caller as the services see it: its address, user agent and known-device cookie (0806). */
export const clientOf = (req: FastifyRequest): ClientInfo => ({
  address: req.ip || 'unknown',
  userAgent: req.headers['user-agent'],
  knownDevices: req.cookies[KNOWN_DEVICE_COOKIE],
});
