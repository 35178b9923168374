// The cookies of the auth and account routes: the session pair (sid, csrf) and the known-device cookie.
// Only routes set or clear them; the services return what a route needs to (a new session, a new kd value).
import type { FastifyReply } from 'fastify';
import { CSRF_COOKIE } from '#shared/constants.ts';
import type { AppContext } from '../../context';
import { SESSION_COOKIE } from '../../plugins/session';
import { KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_PATH, KNOWN_DEVICE_TTL_MS } from './known-devices';
import { type NewSession, SESSION_TTL_MS } from './session.repo';

export function cookieBase(ctx: AppContext) {
  return {
    path: '/',
    sameSite: 'lax' as const,
    // Plain http only where the app is reached over http: local development and tests.
    secure: ctx.env.NODE_ENV === 'production',
  };
}

export function setSessionCookies(reply: FastifyReply, ctx: AppContext, s: NewSession): void {
  const maxAge = Math.floor(SESSION_TTL_MS / 1000);
  void reply.setCookie(SESSION_COOKIE, s.token, { ...cookieBase(ctx), httpOnly: true, maxAge });
  // Readable by the SPA on purpose: it copies the value into the x-csrf-token header.
  void reply.setCookie(CSRF_COOKIE, s.csrf, { ...cookieBase(ctx), httpOnly: false, maxAge });
}

export function clearSessionCookies(reply: FastifyReply, ctx: AppContext): void {
  void reply.clearCookie(SESSION_COOKIE, { ...cookieBase(ctx), httpOnly: true });
  void reply.clearCookie(CSRF_COOKIE, { ...cookieBase(ctx), httpOnly: false });
}

export function setKnownDevices(reply: FastifyReply, ctx: AppContext, value: string): void {
  void reply.setCookie(KNOWN_DEVICE_COOKIE, value, {
    ...cookieBase(ctx),
    path: KNOWN_DEVICE_PATH,
    httpOnly: true,
    maxAge: Math.floor(KNOWN_DEVICE_TTL_MS / 1000),
  });
}
