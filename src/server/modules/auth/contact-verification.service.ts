// Proving an address and a number: the email link (new account, changed address), the mobile PIN, and
// sending a link again. Plain inputs: the signed-in user as a SessionUser, the caller's address.
import { notification, type NotificationPayload } from '#shared/api/errors.ts';
import { msg } from '#shared/api/messages.ts';
import type { AppContext } from '../../context';
import { writeAudit } from '../../db/audit';
import { unauthenticated, ValidationError } from '../../lib/errors';
import { translator } from '../../lib/i18n';
import type { SessionUser } from '../../plugins/session';
import * as repo from './auth.repo';
import { deliver, type Log, mailLanguage, mails } from './emails';
import { LIMITS, reserve, resetLimit } from './limits';
import { INVALID_LINK, isLive, issueLink, tokenOfLink } from './one-time-links';
import { endAccessInto } from './session.service';
import { PIN_MAX_ATTEMPTS, randomPin, randomSecret, safeEqualHex, splitRef, TOKEN_TTL_MS, tokenMac } from './tokens';

/** Who a mail of this file goes to: the account's id, address, name and language. */
type MailedAccount = Pick<repo.AccountRow, 'id' | 'email' | 'username' | 'language'>;

export async function sendEmailVerification(ctx: AppContext, log: Log, account: MailedAccount): Promise<void> {
  const link = await issueLink(ctx, ctx.db, account.id, 'email_verify', account.email);
  await deliver(ctx, log, mails.verifyEmail(ctx, account.email, account, link.ref));
}

export async function verifyEmailLink(
  ctx: AppContext,
  log: Log,
  target: string,
  /** The browser that opened the link, when it is signed in. */
  user: SessionUser | null = null,
): Promise<NotificationPayload> {
  const parts = splitRef(target);
  const token = parts ? await tokenOfLink(ctx, parts.id, parts.secret, ['email_verify', 'email_change']) : undefined;
  if (!token) throw ValidationError.field('target', INVALID_LINK);
  const account = await repo.findAccountById(ctx.db, token.accountId);
  if (!account || account.status === 'deleted') throw ValidationError.field('target', INVALID_LINK);
  const now = ctx.now();
  // A second click on a link that already worked is not an error for the user.
  if (token.usedAt && account.emailVerifiedAt && token.target?.toLowerCase() === account.email.toLowerCase()) {
    return notification(msg('auth.emailAlreadyConfirmed'), { icon: 'success', path: '/' });
  }
  if (!isLive(token, now) || !token.target) throw ValidationError.field('target', INVALID_LINK);

  if (token.purpose === 'email_verify') {
    // The link confirms the address it was sent to, not whatever the account has now.
    if (token.target.toLowerCase() !== account.email.toLowerCase()) throw ValidationError.field('target', INVALID_LINK);
    await ctx.db.transaction(async (tx) => {
      if (!(await repo.consumeToken(tx, token.id, now))) throw ValidationError.field('target', INVALID_LINK);
      await repo.updateAccount(tx, account.id, { emailVerifiedAt: now });
    });
    return notification(msg('auth.emailConfirmed'), { icon: 'success', path: '/' });
  }

  const newEmail = token.target;
  const oldEmail = account.email;
  await ctx.db.transaction(async (tx) => {
    if (await repo.emailTaken(tx, newEmail, account.id)) throw ValidationError.field('email', msg('auth.emailTaken'));
    if (!(await repo.consumeToken(tx, token.id, now))) throw ValidationError.field('target', INVALID_LINK);
    await repo.updateAccount(tx, account.id, { email: newEmail, emailVerifiedAt: now });
    await repo.retireTokens(tx, account.id, ['email_verify', 'password_reset'], now);
    // The browser that opened the link stays signed in when it is this account's.
    await endAccessInto(tx, account.id, user?.id === account.id ? user.sessionId : undefined);
    await writeAudit(tx, { actorId: account.id, action: 'account.email_changed', targetUserId: account.id, at: now });
  });
  await deliver(ctx, log, mails.emailChanged(oldEmail, account));
  return notification(msg('auth.newEmailConfirmed'), {
    icon: 'success',
    path: `/edit/account/${account.id}`,
  });
}

/** Issues a PIN for a new mobile number and texts it; the answer sends the browser to /verify/pin/{hash}. */
export async function requestMobilePin(
  ctx: AppContext,
  accountId: number,
  mobile: string,
): Promise<{ ref: string; path: string }> {
  await reserve(ctx, [[LIMITS.smsAccount, accountId]]);
  const now = ctx.now();
  const pin = randomPin();
  const nonce = randomSecret();
  const row = await ctx.db.transaction(async (tx) => {
    await repo.retireTokens(tx, accountId, ['mobile_pin'], now);
    return repo.insertToken(
      tx,
      {
        accountId,
        purpose: 'mobile_pin',
        // The reference in the URL is part of the MAC: a PIN works only with the link it was sent for.
        tokenHash: tokenMac(ctx, 'mobile_pin', accountId, `${nonce}:${pin}`),
        target: mobile,
        expiresAt: new Date(now.getTime() + TOKEN_TTL_MS.mobile_pin),
      },
      now,
    );
  });
  // Written in the account's language, like its mails.
  const account = await repo.findAccountById(ctx.db, accountId);
  const language = mailLanguage(account?.language ?? 'en');
  const t = translator(language, 'messages');
  const minutes = Math.round(TOKEN_TTL_MS.mobile_pin / 60_000);
  await ctx.sms.send({ to: mobile, text: t('auth.smsPin', { pin, minutes }) });
  const ref = `${row.id}.${nonce}`;
  return { ref, path: `/verify/pin/${ref}` };
}

export async function pendingMobile(ctx: AppContext, accountId: number) {
  const token = await repo.openToken(ctx.db, accountId, 'mobile_pin', ctx.now());
  return token ? { mobile: token.target } : null;
}

export async function pendingEmail(ctx: AppContext, accountId: number) {
  const token = await repo.openToken(ctx.db, accountId, 'email_change', ctx.now());
  return token?.target ?? null;
}

export interface VerifyPinInput {
  /** The signed-in user the PIN was sent to. */
  actor: SessionUser;
  /** The caller's address, for its own attempt limit. */
  address: string;
  target: string;
  pin: string;
  log: Log;
}

export async function verifyPin(
  ctx: AppContext,
  { actor: user, address, target, pin, log }: VerifyPinInput,
): Promise<NotificationPayload> {
  await reserve(ctx, [
    [LIMITS.pinAddress, address],
    [LIMITS.pinAccount, user.id],
  ]);
  const parts = splitRef(target);
  const token = parts ? await repo.findToken(ctx.db, parts.id) : undefined;
  const now = ctx.now();
  if (!parts || !token || token.purpose !== 'mobile_pin' || token.accountId !== user.id || !token.target) {
    throw ValidationError.field('pin', msg('auth.pinInvalid'));
  }
  // The PIN's own count is reserved the same way: one of its attempts is taken before it is compared.
  const attempt = await repo.reserveTokenAttempt(ctx.db, token.id, PIN_MAX_ATTEMPTS, now);
  if (attempt === null) throw ValidationError.field('pin', msg('auth.pinExpired'));
  const ok = safeEqualHex(token.tokenHash, tokenMac(ctx, 'mobile_pin', user.id, `${parts.secret}:${pin}`));
  if (!ok) {
    if (attempt >= PIN_MAX_ATTEMPTS) await repo.retireToken(ctx.db, token.id, now);
    throw ValidationError.field('pin', msg(attempt < PIN_MAX_ATTEMPTS ? 'auth.pinWrong' : 'auth.pinWrongLast'));
  }
  const mobile = token.target;
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.consumeToken(tx, token.id, now))) throw ValidationError.field('pin', msg('auth.pinExpired'));
    await repo.updateAccount(tx, user.id, { mobile, mobileVerifiedAt: now });
    await writeAudit(tx, { actorId: user.id, action: 'account.mobile_changed', targetUserId: user.id, at: now });
  });
  await resetLimit(ctx, LIMITS.pinAccount, user.id);
  const account = await repo.findAccountById(ctx.db, user.id);
  if (account) await deliver(ctx, log, mails.mobileChanged(account.email, account));
  return notification(msg('auth.mobileConfirmed'), {
    icon: 'success',
    path: `/edit/account/${user.id}`,
  });
}

export async function resendVerification(ctx: AppContext, actor: SessionUser, log: Log): Promise<NotificationPayload> {
  const account = await repo.findAccountById(ctx.db, actor.id);
  if (!account) throw unauthenticated();
  if (account.emailVerifiedAt) return notification(msg('auth.emailAlreadyConfirmed'), { icon: 'info' });
  await reserve(ctx, [[LIMITS.mailAccount, actor.id]]);
  await sendEmailVerification(ctx, log, account);
  return notification(msg('auth.linkResent', { email: account.email }), { icon: 'success' });
}

/** The account screen's change of address: a link to the new one, a note to the old one. */
export async function sendEmailChangeLink(ctx: AppContext, log: Log, account: MailedAccount, newEmail: string) {
  await reserve(ctx, [[LIMITS.mailAccount, account.id]]);
  const link = await issueLink(ctx, ctx.db, account.id, 'email_change', newEmail);
  await deliver(ctx, log, mails.changeEmail(ctx, newEmail, account, link.ref));
  await deliver(ctx, log, mails.emailChangeRequested(account.email, account));
}
