// Sessions: a 256-bit random token in the HttpOnly `sid` cookie, stored only as its SHA-256; a
// per-session CSRF token in the readable `csrf` cookie that the SPA echoes in `x-csrf-token`.
// A new session (new token, new CSRF token) at every sign-in and switch; destroyed at sign-out.
// The rows only: the routes set and clear the cookies (cookies.ts).
import crypto from 'node:crypto';
import { and, eq, lt, ne } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { sessions } from '../../db/schema';
import { headerToStore, scrubCardNumbers } from '../../lib/card-numbers';
import { hashToken } from '../../plugins/session';
import type { ClientInfo } from './known-devices';

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
  client: ClientInfo,
  db: Db | Tx = ctx.db,
): Promise<NewSession> {
  const token = crypto.randomBytes(32).toString('base64url');
  const csrf = crypto.randomBytes(32).toString('base64url');
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({
    id: hashToken(token),
    accountId,
    csrfToken: csrf,
    // No card number, even in a User-Agent someone wrote one into: its digits scrubbed, then cut
    // (decision 0810). The address is one (the card guard refuses a forwarded one that holds a number).
    ip: scrubCardNumbers(client.address),
    userAgent: headerToStore(client.userAgent, 300),
    // The app's clock: the idle check (plugins/session.ts) compares last_seen_at with ctx.now().
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
  });
  return { token, csrf, expiresAt };
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
