// The auth calls' answers (src/shared/schemas/auth.ts) from the rows of auth.repo.ts: rows in, answers out.
import { completionPath } from '#shared/rules/completion.ts';
import type { CurrentUser, LinksResponse, RecoverResponse, SessionResponse } from '#shared/schemas/auth.ts';
import type * as repo from './auth.repo';

/** The signed-in user as every screen sees it (GET /api/auth/user and the session answers). */
export function presentCurrentUser(row: NonNullable<Awaited<ReturnType<typeof repo.currentUserRow>>>): CurrentUser {
  return {
    user_id: row.id,
    username: row.username,
    role: row.role,
    language: row.language,
    complete: row.complete ?? false,
    verify: row.verification ?? 'none',
    email_verified: !!row.emailVerifiedAt,
    mobile_verified: !!row.mobileVerifiedAt,
  };
}

/** The user, and where the browser goes next (an admin never to the completion screen, 0007). */
export function presentSession(user: CurrentUser): SessionResponse {
  return { data: user, path: completionPath(user) };
}

export function presentLinks(rows: Awaited<ReturnType<typeof repo.listLinks>>): LinksResponse {
  return { data: rows.map((r) => ({ user_id: r.userId, username: r.username, screen_name: r.screenName ?? null })) };
}

/** POST /recover: the link still works, until when. */
export function presentRecoverLink(token: repo.TokenRow): RecoverResponse {
  return { data: { valid: true as const, expires_at: token.expiresAt.toISOString() } };
}
