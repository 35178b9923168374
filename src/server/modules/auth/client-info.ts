// The caller as the auth and account services see it (known devices, limits by address).
import type { FastifyRequest } from 'fastify';
import { KNOWN_DEVICE_COOKIE, type ClientInfo } from './known-devices';

/** The caller as the services see it: its address, user agent and known-device cookie (0806). */
export const clientOf = (req: FastifyRequest): ClientInfo => ({
  address: req.ip || 'unknown',
  userAgent: req.headers['user-agent'],
  knownDevices: req.cookies[KNOWN_DEVICE_COOKIE],
});
