// Sessions: a 256-bit random token in the HttpOnly `sid` cookie, stored only as its SHA-256; a
// per-session CSRF token in the readable `csrf` cookie that the SPA echoes in `x-csrf-token`.
// A new session (new token, new CSRF token) at every sign-in and switch; destroyed at sign-out.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt, ne } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { sessions } from '../../db/schema';
import { CSRF_COOKIE } from '#shared/constants.ts';
import { hashToken, SESSION_COOKIE } from '../../plugins/session';

/** ASVS 3.3.2 (L2): re-authenticate at least every 30 days. */
export const SESSION_TTL_MS = 30 * 86_400_000;

export interface NewSession {
  token: string;
  csrf: string;
  expiresAt: Date;
}

export async function createSession(
  ctx: AppContext,
  accountId: number,
  request: FastifyRequest,
  db: Db | Tx = ctx.db,
): Promise<NewSession> {
  const token = crypto.randomBytes(32).toString('base64url');
  const csrf = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(ctx.now().getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({
    id: hashToken(token),
    accountId,
    csrfToken: csrf,
    ip: request.ip,
    userAgent: (request.headers['user-agent'] ?? '').slice(0, 300),
    expiresAt,
  });
  return { token, csrf, expiresAt };
}

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

/** `sessionId` is the stored (hashed) id, as in request.user.sessionId. */
export async function destroySession(db: Db | Tx, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Every session of the account, except the one given (ASVS 3.3.3 after a password change). */
export async function destroyAccountSessions(db: Db | Tx, accountId: number, exceptSessionId?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(
      exceptSessionId
        ? and(eq(sessions.accountId, accountId), ne(sessions.id, exceptSessionId))
        : eq(sessions.accountId, accountId),
    );
}

export async function deleteExpiredSessions(db: Db, now: Date): Promise<number> {
  const rows = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id });
  return rows.length;
}
