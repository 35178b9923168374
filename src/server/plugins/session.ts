// Resolves the signed-in account from the `sid` cookie and guards state-changing calls with CSRF.
// The accounts module creates and destroys sessions; this plugin only reads them.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, gt } from 'drizzle-orm';
import { accounts, sessions } from '../db/schema';
import { forbidden, unauthenticated } from '../lib/errors';
import type { Role } from '../policies';
import type { AppContext } from '../context';
import { CSRF_HEADER } from '#shared/constants.ts';
import { msg } from '#shared/api/messages.ts';

export interface SessionUser {
  id: number;
  role: Role;
  username: string;
  sessionId: string;
  csrfToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

export const SESSION_COOKIE = 'sid';

export function hashToken(token: string) {
  return crypto.createHash('sha256').update(token).digest('hex');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A session unused this long ends, whatever its absolute expiry (30 days from sign-in). */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** Activity is written at most this often per session, not on every request. */
const ACTIVITY_WRITE_MS = 5 * 60 * 1000;

export const sessionPlugin = fp(async (app: FastifyInstance, opts: { ctx: AppContext }) => {
  const { db } = opts.ctx;
  app.decorateRequest('user', null);

  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 200) return;
    const now = opts.ctx.now();
    const [found] = await db
      .select({
        id: accounts.id,
        role: accounts.role,
        username: accounts.username,
        sessionId: sessions.id,
        csrfToken: sessions.csrfToken,
        lastSeenAt: sessions.lastSeenAt,
      })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .where(
        and(
          eq(sessions.id, hashToken(token)),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
          eq(accounts.status, 'active'),
        ),
      )
      .limit(1);
    if (!found) return;
    const { lastSeenAt, ...row } = found;
    if (now.getTime() - lastSeenAt.getTime() > ACTIVITY_WRITE_MS) {
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
    }
    request.user = row;
    // Double-submit check: the SPA echoes the csrf cookie in a header on every state-changing call.
    if (!SAFE_METHODS.has(request.method) && request.url.startsWith('/api/')) requireCsrf(request);
  });
});

/**
 * The CSRF header must match the session's token. Runs for every state-changing method; a GET that
 * changes state (the spec's GET /edit/deleteVideo) calls it itself.
 */
export function requireCsrf(request: FastifyRequest): void {
  const sent = request.headers[CSRF_HEADER];
  if (!request.user || typeof sent !== 'string' || !timingSafeEqual(sent, request.user.csrfToken)) {
    throw forbidden(msg('errors.sessionToken'));
  }
}

function timingSafeEqual(a: string, b: string) {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

/** Who is asking; what they may do is the policies' business (src/server/policies). */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}
