// The account screen (/edit/account/{id}): email, mobile, password, username, delete. The session
// must own {id} or be an admin (checked by the route guard); email, password and deletion ask for
// the current password of whoever is signed in. Plain inputs and results: the delete route clears the
// cookies when the answer says the actor signed itself out.
import { notification, type NotificationPayload } from '#shared/api/errors.ts';
import { msg } from '#shared/api/messages.ts';
import { ACCOUNT_PURGE_DAYS, type Language } from '#shared/constants.ts';
import type { AccountResponse } from '#shared/schemas/account.ts';
import type { AppContext } from '../../context';
import { notFound, ValidationError } from '../../lib/errors';
import type { SessionUser } from '../../plugins/session';
import type { Log } from '../auth/emails';
import * as identity from '../auth/identity.service';
import * as recovery from '../auth/recovery.service';
import { endAllSessions } from '../auth/session.service';
import * as verification from '../auth/contact-verification.service';
import { presentAccount } from './account.presenter';
import * as repo from './account.repo';

async function liveAccount(ctx: AppContext, id: number) {
  const account = await identity.findAccount(ctx, id);
  if (!account || account.status === 'deleted') throw notFound(msg('account.notFound'));
  return account;
}

export async function getAccount(ctx: AppContext, id: number): Promise<AccountResponse> {
  const account = await liveAccount(ctx, id);
  const [pendingEmail, pendingMobile] = await Promise.all([
    verification.pendingEmail(ctx, id),
    verification.pendingMobile(ctx, id),
  ]);
  return presentAccount(account, pendingEmail, pendingMobile);
}

export interface ChangeEmailInput {
  actor: SessionUser;
  id: number;
  email: string;
  currentPassword: string;
  log: Log;
}

export async function changeEmail(
  ctx: AppContext,
  { actor, id, email, currentPassword, log }: ChangeEmailInput,
): Promise<NotificationPayload> {
  await identity.reauthenticate(ctx, actor, currentPassword);
  const account = await liveAccount(ctx, id);
  if (account.email.toLowerCase() === email) throw ValidationError.field('email', msg('account.sameEmail'));
  if (await identity.isEmailTaken(ctx, email, id)) throw ValidationError.field('email', msg('auth.emailTaken'));
  await verification.sendEmailChangeLink(ctx, log, account, email);
  return notification(msg('account.emailLinkSent', { email }), { icon: 'info' });
}

export async function changeMobile(ctx: AppContext, id: number, mobile: string): Promise<NotificationPayload> {
  await liveAccount(ctx, id);
  const { path } = await verification.requestMobilePin(ctx, id, mobile);
  return notification(msg('account.pinSent', { mobile }), { icon: 'info', path });
}

export async function changePassword(
  ctx: AppContext,
  input: { actor: SessionUser; id: number; currentPassword: string; password: string; log: Log },
): Promise<NotificationPayload> {
  const { id, ...rest } = input;
  return recovery.changePassword(ctx, { ...rest, targetId: id });
}

export async function changeUsername(
  ctx: AppContext,
  actor: SessionUser,
  id: number,
  username: string,
): Promise<NotificationPayload> {
  const account = await liveAccount(ctx, id);
  if (account.username === username) return notification(msg('account.usernameUnchanged'), { icon: 'info' });
  if (await identity.isUsernameTaken(ctx, username, id))
    throw ValidationError.field('username', msg('auth.usernameTaken'));
  await ctx.db.transaction(async (tx) => {
    await repo.updateUsername(tx, id, username);
    await identity.recordAccountEvent(tx, {
      actorId: actor.id,
      action: 'account.username_changed',
      targetUserId: id,
      data: { from: account.username, to: username },
      at: ctx.now(),
    });
  });
  return notification(msg('account.usernameChanged'), { icon: 'success' });
}

/** The language switcher's choice, kept on the account for the next visit and for emails. */
export async function changeLanguage(
  ctx: AppContext,
  id: number,
  language: Language,
): Promise<{ data: { language: Language } }> {
  await liveAccount(ctx, id);
  await repo.updateLanguage(ctx.db, id, language);
  return { data: { language } };
}

export interface DeleteAccountInput {
  actor: SessionUser;
  id: number;
  currentPassword: string;
  log: Log;
}

/** The answer, and whether the actor deleted its own account (then the route clears its cookies). */
export async function deleteAccount(
  ctx: AppContext,
  { actor, id, currentPassword, log }: DeleteAccountInput,
): Promise<{ answer: NotificationPayload; signedOut: boolean }> {
  await identity.reauthenticate(ctx, actor, currentPassword);
  const account = await liveAccount(ctx, id);
  const now = ctx.now();
  const purgeAfter = new Date(now.getTime() + ACCOUNT_PURGE_DAYS * 86_400_000);
  await ctx.db.transaction(async (tx) => {
    await repo.markDeleted(tx, id, now, purgeAfter);
    await endAllSessions(tx, id);
    await identity.recordAccountEvent(tx, {
      actorId: actor.id,
      action: 'account.deleted',
      targetUserId: id,
      data: { purge_after: purgeAfter.toISOString() },
      at: now,
    });
  });
  await identity.notifyAccountDeleted(ctx, log, account);
  const signedOut = actor.id === id;
  return {
    answer: notification(msg('account.deleted', { days: ACCOUNT_PURGE_DAYS }), {
      icon: 'success',
      path: signedOut ? '/' : `/admin/users`,
    }),
    signedOut,
  };
}
