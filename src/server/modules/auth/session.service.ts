// Sessions as the other auth services and modules use them: start one for an account, end one, end every
// way into an account, and the periodic clean-up. Plain inputs and results: a new session comes back as
// its token and CSRF token, and the route puts them into cookies (cookies.ts).
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import * as repo from './auth.repo';
import type { ClientInfo } from './known-devices';
import {
  createSession,
  deleteExpiredSessions,
  destroyAccountSessions,
  destroySession,
  type NewSession,
} from './session.repo';

export type { NewSession };

export function startSession(
  ctx: AppContext,
  accountId: number,
  client: ClientInfo,
  db: Db | Tx = ctx.db,
): Promise<NewSession> {
  return createSession(ctx, accountId, client, db);
}

/** `sessionId` is the stored (hashed) id, as in SessionUser.sessionId. */
export function endSession(db: Db | Tx, sessionId: string): Promise<void> {
  return destroySession(db, sessionId);
}

/**
 * After a change of what proves the account (password, email) or its deletion, nobody keeps a way in
 * that was opened before it: every session ends, except the one making the change when given, and every
 * linked account loses its link, so it can no longer switch into this one (issue 8, decision 0801).
 */
export async function endAccessInto(db: Db | Tx, accountId: number, keepSessionId?: string): Promise<void> {
  await destroyAccountSessions(db, accountId, keepSessionId);
  await repo.unlinkAll(db, accountId);
}

/** Deletion: every session and every link into the account end. */
export async function endAllSessions(db: Db | Tx, accountId: number): Promise<void> {
  await endAccessInto(db, accountId);
}

/** Periodic clean-up for the worker: expired sessions, and links and PINs dead for over a week. */
export async function cleanupAuthData(
  ctx: AppContext,
  now: Date = ctx.now(),
): Promise<{ sessions: number; tokens: number }> {
  return { sessions: await deleteExpiredSessions(ctx.db, now), tokens: await repo.deleteStaleTokens(ctx.db, now) };
}
