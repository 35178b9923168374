// What the auth and account routes hand to Fastify. `sent`: a notification whose texts are still
// Messages, as it goes out on the wire once translated (lib/answers.ts, shared by every module).
import type { FastifyRequest } from 'fastify';
import { KNOWN_DEVICE_COOKIE, type ClientInfo } from './known-devices';

export { sent } from '../../lib/answers';

/** The caller as the services see it: its address, user agent and known-device cookie (0806). */
export const clientOf = (req: FastifyRequest): ClientInfo => ({
  address: req.ip || 'unknown',
  userAgent: req.headers['user-agent'],
  knownDevices: req.cookies[KNOWN_DEVICE_COOKIE],
});
