// The account screen (/edit/account/{id}): email, mobile, password, username, delete. The session
// must own {id} or be an admin (checked by the route guard); email, password and deletion ask for
// the current password of whoever is signed in.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notification, type NotificationPayload } from '#shared/api/errors.ts';
import { ACCOUNT_PURGE_DAYS, type Language } from '#shared/constants.ts';
import type { AccountView } from '#shared/schemas/account.ts';
import type { AppContext } from '../../context';
import { notFound, ValidationError } from '../../lib/errors';
import type { SessionUser } from '../../plugins/session';
import * as auth from '../auth/auth.service';
import * as repo from './account.repo';

async function liveAccount(ctx: AppContext, id: number) {
  const account = await auth.findAccount(ctx, id);
  if (!account || account.status === 'deleted') throw notFound('Account not found.');
  return account;
}

export async function getAccount(ctx: AppContext, id: number): Promise<{ data: AccountView }> {
  const account = await liveAccount(ctx, id);
  const [pendingEmail, pendingMobile] = await Promise.all([auth.pendingEmail(ctx, id), auth.pendingMobile(ctx, id)]);
  return {
    data: {
      user_id: account.id,
      email: account.email,
      email_verified: !!account.emailVerifiedAt,
      pending_email: pendingEmail,
      mobile: account.mobile,
      mobile_verified: !!account.mobileVerifiedAt,
      // The /verify/pin/{hash} path exists only in the answer that sent the PIN (the hash is not
      // stored); asking again sends a new PIN with a new path.
      pending_mobile: pendingMobile?.mobile ?? null,
      username: account.username,
      role: account.role,
      created_at: account.createdAt.toISOString(),
    },
  };
}

export async function changeEmail(
  ctx: AppContext,
  request: FastifyRequest,
  actor: SessionUser,
  id: number,
  email: string,
  currentPassword: string,
): Promise<NotificationPayload> {
  await auth.reauthenticate(ctx, actor, currentPassword);
  const account = await liveAccount(ctx, id);
  if (account.email.toLowerCase() === email)
    throw ValidationError.field('email', 'This is already the email address of the account.');
  if (await auth.isEmailTaken(ctx, email, id))
    throw ValidationError.field('email', 'This email address is already registered.');
  await auth.sendEmailChangeLink(ctx, request.log, account, email);
  return notification(`We sent a link to ${email}. The address of the account changes when the link is opened.`, {
    icon: 'info',
  });
}

export async function changeMobile(ctx: AppContext, id: number, mobile: string): Promise<NotificationPayload> {
  await liveAccount(ctx, id);
  const { path } = await auth.requestMobilePin(ctx, id, mobile);
  return notification(`We sent a 6-digit code to ${mobile}. Enter it to confirm the number.`, { icon: 'info', path });
}

export async function changePassword(
  ctx: AppContext,
  request: FastifyRequest,
  actor: SessionUser,
  id: number,
  currentPassword: string,
  password: string,
): Promise<NotificationPayload> {
  return auth.changePassword(ctx, request, actor, id, currentPassword, password);
}

export async function changeUsername(
  ctx: AppContext,
  actor: SessionUser,
  id: number,
  username: string,
): Promise<NotificationPayload> {
  const account = await liveAccount(ctx, id);
  if (account.username === username) return notification('The username is unchanged.', { icon: 'info' });
  if (await auth.isUsernameTaken(ctx, username, id))
    throw ValidationError.field('username', 'This username is already taken.');
  await ctx.db.transaction(async (tx) => {
    await repo.updateUsername(tx, id, username);
    await auth.audit(tx, actor.id, 'account.username_changed', id, { from: account.username, to: username });
  });
  return notification('Your username has been changed.', { icon: 'success' });
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

export async function deleteAccount(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  actor: SessionUser,
  id: number,
  currentPassword: string,
): Promise<NotificationPayload> {
  await auth.reauthenticate(ctx, actor, currentPassword);
  const account = await liveAccount(ctx, id);
  const now = ctx.now();
  const purgeAfter = new Date(now.getTime() + ACCOUNT_PURGE_DAYS * 86_400_000);
  await ctx.db.transaction(async (tx) => {
    await repo.markDeleted(tx, id, now, purgeAfter);
    await auth.endAllSessions(tx, id);
    await auth.audit(tx, actor.id, 'account.deleted', id, { purge_after: purgeAfter.toISOString() });
  });
  if (actor.id === id) auth.clearSessionCookies(reply, ctx);
  await auth.notifyAccountDeleted(ctx, request.log, account);
  return notification(
    `The account is deleted and its profile hidden. All its data will be removed within ${ACCOUNT_PURGE_DAYS} days.`,
    {
      icon: 'success',
      path: actor.id === id ? '/' : `/admin/users`,
    },
  );
}
