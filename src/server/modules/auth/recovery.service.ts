// A forgotten password (the mailed link, its check and the new password) and a change of password by
// the signed-in user. Plain inputs: the caller's address, the actor, a logger for the mails.
import { notification, type NotificationPayload } from '#shared/api/errors.ts';
import { msg } from '#shared/api/messages.ts';
import type { RecoverResponse } from '#shared/schemas/auth.ts';
import type { AppContext } from '../../context';
import { writeAudit } from '../../db/audit';
import { notFound, ValidationError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { SessionUser } from '../../plugins/session';
import { presentRecoverLink } from './auth.presenter';
import * as repo from './auth.repo';
import { deliver, type Log, mails } from './emails';
import { assertPasswordAllowed, reauthenticate } from './identity.service';
import { LIMITS, reserve, resetLimit, typedSubject } from './limits';
import { INVALID_LINK, isLive, issueLink, tokenOfLink } from './one-time-links';
import { endAccessInto } from './session.service';

export interface ForgotPasswordInput {
  email: string;
  /** The caller's address, for its own limit. */
  address: string;
  log: Log;
}

export async function forgotPassword(
  ctx: AppContext,
  { email, address, log }: ForgotPasswordInput,
): Promise<NotificationPayload> {
  // Limits count every request, known address or not, so a 429 tells nothing about the account.
  await reserve(ctx, [
    [LIMITS.forgotAddress, address],
    [LIMITS.forgotEmail, typedSubject(ctx, 'email', email)],
  ]);
  const account = await repo.findAccountByLogin(ctx.db, email);
  if (account && account.status !== 'deleted') {
    // Issued and mailed after the answer has gone: a known address must not answer slower than an
    // unknown one. setImmediate, not just a floating promise: PGlite runs in this thread, so its queries
    // started now would hold the answer back (measured 12.8 vs 8.0 ms; bench/auth-timing.bench.ts).
    setImmediate(() => {
      void (async () => {
        const link = await issueLink(ctx, ctx.db, account.id, 'password_reset', null);
        await deliver(ctx, log, mails.resetPassword(ctx, account.email, account, link.id, link.secret));
      })().catch((err: unknown) => log.error({ err }, 'password reset link could not be issued'));
    });
  }
  return notification(msg('auth.forgotSent'), { icon: 'info' });
}

async function liveResetToken(ctx: AppContext, id: number, hash: string) {
  const token = await tokenOfLink(ctx, id, hash, ['password_reset']);
  if (!token || !isLive(token, ctx.now())) throw ValidationError.field('hash', INVALID_LINK);
  return token;
}

/** POST /recover: whether a /recover/{id}/{hash} link still works, before the form is shown. */
export async function checkRecoverLink(ctx: AppContext, id: number, hash: string): Promise<RecoverResponse> {
  return presentRecoverLink(await liveResetToken(ctx, id, hash));
}

export interface ResetPasswordInput {
  id: number;
  hash: string;
  password: string;
  log: Log;
}

export async function resetPassword(
  ctx: AppContext,
  { id, hash, password, log }: ResetPasswordInput,
): Promise<NotificationPayload> {
  const token = await liveResetToken(ctx, id, hash);
  const account = await repo.findAccountById(ctx.db, token.accountId);
  if (!account || account.status === 'deleted') throw ValidationError.field('hash', INVALID_LINK);
  // Checked before the link is used up, so a refused password does not cost the user the link.
  assertPasswordAllowed(password, account);
  const passwordHash = await hashPassword(password);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.consumeToken(tx, token.id, now))) throw ValidationError.field('hash', INVALID_LINK);
    // The mail reached its owner, so the address is proven as well.
    await repo.updateAccount(tx, account.id, { passwordHash, emailVerifiedAt: account.emailVerifiedAt ?? now });
    await repo.retireTokens(tx, account.id, ['password_reset'], now);
    await endAccessInto(tx, account.id);
    await writeAudit(tx, { actorId: null, action: 'account.password_reset', targetUserId: account.id, at: now });
  });
  await resetLimit(ctx, LIMITS.loginAccount, `id:${account.id}`);
  await deliver(ctx, log, mails.passwordChanged(account.email, account));
  return notification(msg('auth.passwordReset'), { icon: 'success', path: '/login' });
}

export interface ChangePasswordInput {
  /** Who is signed in: they give their own current password, also when an admin changes another's. */
  actor: SessionUser;
  targetId: number;
  currentPassword: string;
  password: string;
  log: Log;
}

export async function changePassword(ctx: AppContext, input: ChangePasswordInput): Promise<NotificationPayload> {
  const { actor, targetId, currentPassword, password, log } = input;
  await reauthenticate(ctx, actor, currentPassword);
  const target = await repo.findAccountById(ctx.db, targetId);
  if (!target || target.status === 'deleted') throw notFound(msg('auth.accountNotFound'));
  assertPasswordAllowed(password, target);
  if (await verifyPassword(target.passwordHash, password)) {
    throw ValidationError.field('password', msg('auth.passwordSame'));
  }
  const passwordHash = await hashPassword(password);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await repo.updateAccount(tx, target.id, { passwordHash });
    await repo.retireTokens(tx, target.id, ['password_reset'], now);
    // Every other session of the account ends (ASVS 3.3.3), and every link into it; the session making
    // the change stays.
    await endAccessInto(tx, target.id, actor.id === target.id ? actor.sessionId : undefined);
    await writeAudit(tx, { actorId: actor.id, action: 'account.password_changed', targetUserId: target.id, at: now });
  });
  await deliver(ctx, log, mails.passwordChanged(target.email, target));
  return notification(msg('auth.passwordChanged'), { icon: 'success' });
}
