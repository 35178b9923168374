// Account access: register, sign in and out, verification links and PINs, password recovery,
// re-authentication, linked accounts. Routes stay thin; other modules call these functions.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { notification, type NotificationPayload } from '#shared/api/errors.ts';
import { ACCOUNT_PURGE_DAYS, MIN_AGE } from '#shared/constants.ts';
import { ageOn } from '#shared/rules/date-of-birth.ts';
import type { CurrentUser, LinkedAccount, RegisterBody } from '#shared/schemas/auth.ts';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { forbidden, notFound, unauthenticated, ValidationError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { callLanguage } from '../../lib/message-i18n';
import type { SessionUser } from '../../plugins/session';
import * as repo from './auth.repo';
import { deliver, mails } from './emails';
import {
  addressKey,
  type ClientInfo,
  isKnownAddress,
  knownDeviceFor,
  rememberAddress,
  rememberDevice,
} from './known-devices';
import { LIMITS, type LimitCheck, reserve, resetLimit } from './limits';
import { passwordProblem } from './password-policy';
import {
  clearSessionCookies,
  createSession,
  deleteExpiredSessions,
  destroyAccountSessions,
  destroySession,
  setSessionCookies,
} from './sessions';
import {
  PIN_MAX_ATTEMPTS,
  randomPin,
  randomSecret,
  safeEqualHex,
  splitRef,
  TOKEN_TTL_MS,
  tokenMac,
  type TokenPurpose,
} from './tokens';
import { completionPath } from '#shared/rules/completion.ts';

export type { AccountRow } from './auth.repo';

const BAD_CREDENTIALS = 'These credentials do not match our records.';
const INVALID_LINK = 'This link is invalid or has expired. Please request a new one.';

// ---------------------------------------------------------------- helpers

let dummyHash: Promise<string> | undefined;
/** Checking a password against this when the account is unknown makes both answers take as long. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomSecret());
  return dummyHash;
}

function addressOf(request: FastifyRequest): string {
  return request.ip || 'unknown';
}

export async function currentUser(ctx: AppContext, id: number): Promise<CurrentUser> {
  const row = await repo.currentUserRow(ctx.db, id);
  if (!row) throw unauthenticated();
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

export async function touchLastSeen(ctx: AppContext, id: number): Promise<boolean> {
  return repo.touchLastSeen(ctx.db, id, ctx.now());
}

async function startSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: number,
  db: Db | Tx = ctx.db,
) {
  const session = await createSession(ctx, accountId, request, db);
  setSessionCookies(reply, ctx, session);
}

async function sessionAnswer(ctx: AppContext, accountId: number) {
  const data = await currentUser(ctx, accountId);
  return { data, path: completionPath(data) };
}

/** A new password must pass the policy; the error names the field the form shows it under. */
function assertPasswordAllowed(password: string, who: { username?: string; email?: string }, field = 'password') {
  const problem = passwordProblem(password, who);
  if (problem) throw ValidationError.field(field, problem);
}

/**
 * After a change of what proves the account (password, email) or its deletion, nobody keeps a way in
 * that was opened before it: every session ends, except the one making the change when given, and every
 * linked account loses its link, so it can no longer switch into this one (issue 8, decision 0801).
 */
async function endAccessInto(db: Db | Tx, accountId: number, keepSessionId?: string): Promise<void> {
  await destroyAccountSessions(db, accountId, keepSessionId);
  await repo.unlinkAll(db, accountId);
}

// ---------------------------------------------------------------- one-time links

async function issueLink(
  ctx: AppContext,
  db: Db | Tx,
  accountId: number,
  purpose: TokenPurpose,
  target: string | null,
) {
  const now = ctx.now();
  const secret = randomSecret();
  await repo.retireTokens(db, accountId, [purpose], now);
  const row = await repo.insertToken(db, {
    accountId,
    purpose,
    tokenHash: tokenMac(ctx, purpose, accountId, secret),
    target,
    expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]),
  });
  return { id: row.id, secret, ref: `${row.id}.${secret}` };
}

/** The token a link names, when its secret matches; usedAt and expiry are left to the caller. */
async function tokenOfLink(ctx: AppContext, id: number, secret: string, purposes: TokenPurpose[]) {
  const token = await repo.findToken(ctx.db, id);
  if (!token || !purposes.includes(token.purpose)) return undefined;
  return safeEqualHex(token.tokenHash, tokenMac(ctx, token.purpose, token.accountId, secret)) ? token : undefined;
}

const isLive = (token: repo.TokenRow, now: Date) => !token.usedAt && token.expiresAt > now;

export async function sendEmailVerification(
  ctx: AppContext,
  log: FastifyBaseLogger,
  account: repo.AccountRow,
): Promise<void> {
  const link = await issueLink(ctx, ctx.db, account.id, 'email_verify', account.email);
  await deliver(ctx, log, mails.verifyEmail(ctx, account.email, account, link.ref));
}

// ---------------------------------------------------------------- register, login, logout

/** The session answer, and the new value of the known-device cookie (the route sets it). */
export async function register(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  client: ClientInfo,
  body: RegisterBody,
) {
  const perAddress = { ...LIMITS.registerAddress, max: ctx.env.REGISTER_LIMIT_PER_ADDRESS };
  // The address first, then the two names tried: the answer tells whether they are taken (0100, 0807).
  await reserve(ctx, [
    [perAddress, client.address],
    [LIMITS.registerTarget, `email:${body.email.trim()}`],
    [LIMITS.registerTarget, `username:${body.username.trim()}`],
  ]);
  const errors: Record<string, string[]> = {};
  const problem = passwordProblem(body.password, body);
  if (problem) errors.password = [problem];
  // The shared schema checks the age with the browser's clock; the server's clock decides.
  if (ageOn(body.date_of_birth, ctx.now()) < MIN_AGE)
    errors.date_of_birth = [`You must be at least ${MIN_AGE} years old to register.`];
  if (await repo.emailTaken(ctx.db, body.email)) errors.email = ['This email address is already registered.'];
  if (await repo.usernameTaken(ctx.db, body.username)) errors.username = ['This username is already taken.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const passwordHash = await hashPassword(body.password);
  let account: repo.AccountRow;
  try {
    account = await ctx.db.transaction(async (tx) => {
      const created = await repo.insertAccountWithProfile(tx, {
        email: body.email,
        username: body.username,
        passwordHash,
        dateOfBirth: body.date_of_birth,
        termsAcceptedAt: ctx.now(),
        // The page's language becomes the account's: its emails and, once signed in, its display.
        language: callLanguage(request),
      });
      await repo.audit(tx, created.id, 'account.register', created.id);
      await startSession(ctx, request, reply, created.id, tx);
      return created;
    });
  } catch (err) {
    // Two registrations racing for the same name: the unique index decides.
    if (
      (err as { code?: string; cause?: { code?: string } }).code === '23505' ||
      (err as { cause?: { code?: string } }).cause?.code === '23505'
    ) {
      throw ValidationError.field('email', 'This email address or username is already registered.');
    }
    throw err;
  }
  await sendEmailVerification(ctx, request.log, account);
  const knownDevices = await rememberClient(ctx, client, account.id);
  return { answer: await sessionAnswer(ctx, account.id), knownDevices };
}

/**
 * Checks a login and password under the brute-force limits; the account, or a 422/429. An attempt from a
 * device or an address that has signed in to the account before is counted under its own limit, not the
 * account's, so strangers filling the account's lock do not shut the owner out (0806).
 */
async function checkCredentials(ctx: AppContext, client: ClientInfo, login: string, password: string) {
  const account = await repo.findAccountByLogin(ctx.db, login);
  const device = account ? knownDeviceFor(ctx, client.knownDevices, account.id) : undefined;
  const knownAddress = account && !device ? await isKnownAddress(ctx, account.id, client.address) : false;
  const accountCheck: LimitCheck = device
    ? [LIMITS.loginDevice, `${device.accountId}:${device.nonce}`]
    : account && knownAddress
      ? [LIMITS.loginKnownAddress, addressKey(ctx, account.id, client.address)]
      : [LIMITS.loginAccount, account ? `id:${account.id}` : `login:${login.trim().toLowerCase()}`];
  // The address first: a blocked address does not count against the accounts it names.
  await reserve(ctx, [[LIMITS.loginAddress, client.address], accountCheck]);
  const ok = account
    ? await verifyPassword(account.passwordHash, password)
    : (await verifyPassword(await dummyPasswordHash(), password), false);
  if (!account || !ok || account.status === 'deleted') throw ValidationError.field('login', BAD_CREDENTIALS);
  await resetLimit(ctx, accountCheck[0], accountCheck[1]);
  if (account.status === 'suspended') throw forbidden('This account is suspended.');
  return account;
}

/** After a right password: this device and this address are known for the account from now on. */
async function rememberClient(ctx: AppContext, client: ClientInfo, accountId: number): Promise<string> {
  await rememberAddress(ctx, accountId, client.address);
  return rememberDevice(ctx, client.knownDevices, accountId);
}

/** The session answer, and the new value of the known-device cookie (the route sets it). */
export async function login(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  client: ClientInfo,
  body: { login: string; password: string },
) {
  const account = await checkCredentials(ctx, client, body.login, body.password);
  // A new session at every sign-in (no fixation); a session the browser still had is ended.
  if (request.user) await destroySession(ctx.db, request.user.sessionId);
  await startSession(ctx, request, reply, account.id);
  const knownDevices = await rememberClient(ctx, client, account.id);
  return { answer: await sessionAnswer(ctx, account.id), knownDevices };
}

export async function logout(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  if (request.user) await destroySession(ctx.db, request.user.sessionId);
  clearSessionCookies(reply, ctx);
  return { data: '/' };
}

// ---------------------------------------------------------------- verification

export async function verifyEmailLink(
  ctx: AppContext,
  log: FastifyBaseLogger,
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
    return notification('Your email address is already confirmed.', { icon: 'success', path: '/' });
  }
  if (!isLive(token, now) || !token.target) throw ValidationError.field('target', INVALID_LINK);

  if (token.purpose === 'email_verify') {
    // The link confirms the address it was sent to, not whatever the account has now.
    if (token.target.toLowerCase() !== account.email.toLowerCase()) throw ValidationError.field('target', INVALID_LINK);
    await ctx.db.transaction(async (tx) => {
      if (!(await repo.consumeToken(tx, token.id, now))) throw ValidationError.field('target', INVALID_LINK);
      await repo.updateAccount(tx, account.id, { emailVerifiedAt: now });
    });
    return notification('Thank you, your email address is confirmed.', { icon: 'success', path: '/' });
  }

  const newEmail = token.target;
  const oldEmail = account.email;
  await ctx.db.transaction(async (tx) => {
    if (await repo.emailTaken(tx, newEmail, account.id))
      throw ValidationError.field('email', 'This email address is already registered.');
    if (!(await repo.consumeToken(tx, token.id, now))) throw ValidationError.field('target', INVALID_LINK);
    await repo.updateAccount(tx, account.id, { email: newEmail, emailVerifiedAt: now });
    await repo.retireTokens(tx, account.id, ['email_verify', 'password_reset'], now);
    // The browser that opened the link stays signed in when it is this account's.
    await endAccessInto(tx, account.id, user?.id === account.id ? user.sessionId : undefined);
    await repo.audit(tx, account.id, 'account.email_changed', account.id);
  });
  await deliver(ctx, log, mails.emailChanged(oldEmail, account));
  return notification('Thank you, your new email address is confirmed.', {
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
    return repo.insertToken(tx, {
      accountId,
      purpose: 'mobile_pin',
      // The reference in the URL is part of the MAC: a PIN works only with the link it was sent for.
      tokenHash: tokenMac(ctx, 'mobile_pin', accountId, `${nonce}:${pin}`),
      target: mobile,
      expiresAt: new Date(now.getTime() + TOKEN_TTL_MS.mobile_pin),
    });
  });
  await ctx.sms.send({ to: mobile, text: `Your verification code is ${pin}. It is valid for 10 minutes.` });
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

export async function verifyPin(
  ctx: AppContext,
  request: FastifyRequest,
  target: string,
  pin: string,
): Promise<NotificationPayload> {
  const user = request.user;
  if (!user) throw unauthenticated();
  await reserve(ctx, [
    [LIMITS.pinAddress, addressOf(request)],
    [LIMITS.pinAccount, user.id],
  ]);
  const fail = (message: string) => ValidationError.field('pin', message);
  const parts = splitRef(target);
  const token = parts ? await repo.findToken(ctx.db, parts.id) : undefined;
  const now = ctx.now();
  if (!parts || !token || token.purpose !== 'mobile_pin' || token.accountId !== user.id || !token.target) {
    throw fail('This code is not valid. Please request a new one.');
  }
  // The PIN's own count is reserved the same way: one of its attempts is taken before it is compared.
  const attempt = await repo.reserveTokenAttempt(ctx.db, token.id, PIN_MAX_ATTEMPTS, now);
  if (attempt === null) throw fail('This code has expired. Please request a new one.');
  const ok = safeEqualHex(token.tokenHash, tokenMac(ctx, 'mobile_pin', user.id, `${parts.secret}:${pin}`));
  if (!ok) {
    if (attempt >= PIN_MAX_ATTEMPTS) await repo.retireToken(ctx.db, token.id, now);
    throw fail(
      attempt < PIN_MAX_ATTEMPTS ? 'The PIN is not correct.' : 'The PIN is not correct. Please request a new one.',
    );
  }
  const mobile = token.target;
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.consumeToken(tx, token.id, now)))
      throw ValidationError.field('pin', 'This code has expired. Please request a new one.');
    await repo.updateAccount(tx, user.id, { mobile, mobileVerifiedAt: now });
    await repo.audit(tx, user.id, 'account.mobile_changed', user.id);
  });
  await resetLimit(ctx, LIMITS.pinAccount, user.id);
  const account = await repo.findAccountById(ctx.db, user.id);
  if (account) await deliver(ctx, request.log, mails.mobileChanged(account.email, account));
  return notification('Thank you, your mobile number is confirmed.', {
    icon: 'success',
    path: `/edit/account/${user.id}`,
  });
}

export async function resendVerification(ctx: AppContext, request: FastifyRequest): Promise<NotificationPayload> {
  const user = request.user;
  if (!user) throw unauthenticated();
  const account = await repo.findAccountById(ctx.db, user.id);
  if (!account) throw unauthenticated();
  if (account.emailVerifiedAt) return notification('Your email address is already confirmed.', { icon: 'info' });
  await reserve(ctx, [[LIMITS.mailAccount, user.id]]);
  await sendEmailVerification(ctx, request.log, account);
  return notification(`We sent a new link to ${account.email}.`, { icon: 'success' });
}

// ---------------------------------------------------------------- password recovery

const FORGOT_ANSWER =
  'If an account exists for this address, we have sent it a link to choose a new password. The link is valid for one hour.';

export async function forgotPassword(
  ctx: AppContext,
  request: FastifyRequest,
  email: string,
): Promise<NotificationPayload> {
  // Limits count every request, known address or not, so a 429 tells nothing about the account.
  await reserve(ctx, [
    [LIMITS.forgotAddress, addressOf(request)],
    [LIMITS.forgotEmail, email],
  ]);
  const account = await repo.findAccountByLogin(ctx.db, email);
  if (account && account.status !== 'deleted') {
    // Issued and mailed after the answer has gone: a known address must not answer slower than an
    // unknown one. setImmediate, not just a floating promise: PGlite runs in this thread, so its queries
    // started now would hold the answer back (measured 12.8 vs 8.0 ms; bench/auth-timing.bench.ts).
    const log = request.log;
    setImmediate(() => {
      void (async () => {
        const link = await issueLink(ctx, ctx.db, account.id, 'password_reset', null);
        await deliver(ctx, log, mails.resetPassword(ctx, account.email, account, link.id, link.secret));
      })().catch((err: unknown) => log.error({ err }, 'password reset link could not be issued'));
    });
  }
  return notification(FORGOT_ANSWER, { icon: 'info' });
}

async function liveResetToken(ctx: AppContext, id: number, hash: string) {
  const token = await tokenOfLink(ctx, id, hash, ['password_reset']);
  if (!token || !isLive(token, ctx.now())) throw ValidationError.field('hash', INVALID_LINK);
  return token;
}

/** POST /recover: whether a /recover/{id}/{hash} link still works, before the form is shown. */
export async function checkRecoverLink(ctx: AppContext, id: number, hash: string) {
  const token = await liveResetToken(ctx, id, hash);
  return { data: { valid: true as const, expires_at: token.expiresAt.toISOString() } };
}

export async function resetPassword(
  ctx: AppContext,
  request: FastifyRequest,
  id: number,
  hash: string,
  password: string,
) {
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
    await repo.audit(tx, null, 'account.password_reset', account.id);
  });
  await resetLimit(ctx, LIMITS.loginAccount, `id:${account.id}`);
  await deliver(ctx, request.log, mails.passwordChanged(account.email, account));
  return notification('Your password has been changed. You can sign in with it now.', {
    icon: 'success',
    path: '/login',
  });
}

// ---------------------------------------------------------------- re-authentication and password change

/** The signed-in user proves it is still them (ASVS 2.1.? / 3.7.1) before sensitive changes. */
export async function reauthenticate(
  ctx: AppContext,
  actor: SessionUser,
  password: string,
  field = 'current_password',
): Promise<void> {
  await reserve(ctx, [[LIMITS.reauthAccount, actor.id]]);
  const row = await repo.findAccountById(ctx.db, actor.id);
  const ok = row ? await verifyPassword(row.passwordHash, password) : false;
  if (!ok) throw ValidationError.field(field, 'The current password is not correct.');
  await resetLimit(ctx, LIMITS.reauthAccount, actor.id);
}

export async function changePassword(
  ctx: AppContext,
  request: FastifyRequest,
  actor: SessionUser,
  targetId: number,
  currentPassword: string,
  password: string,
): Promise<NotificationPayload> {
  await reauthenticate(ctx, actor, currentPassword);
  const target = await repo.findAccountById(ctx.db, targetId);
  if (!target || target.status === 'deleted') throw notFound('Account not found.');
  assertPasswordAllowed(password, target);
  if (await verifyPassword(target.passwordHash, password)) {
    throw ValidationError.field('password', 'The new password must differ from the current one.');
  }
  const passwordHash = await hashPassword(password);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await repo.updateAccount(tx, target.id, { passwordHash });
    await repo.retireTokens(tx, target.id, ['password_reset'], now);
    // Every other session of the account ends (ASVS 3.3.3), and every link into it; the session making
    // the change stays.
    await endAccessInto(tx, target.id, actor.id === target.id ? actor.sessionId : undefined);
    await repo.audit(tx, actor.id, 'account.password_changed', target.id);
  });
  await deliver(ctx, request.log, mails.passwordChanged(target.email, target));
  return notification('Your password has been changed. Other sessions were signed out.', { icon: 'success' });
}

// ---------------------------------------------------------------- linked accounts

export async function listLinks(ctx: AppContext, accountId: number): Promise<{ data: LinkedAccount[] }> {
  const rows = await repo.listLinks(ctx.db, accountId);
  return { data: rows.map((r) => ({ user_id: r.userId, username: r.username, screen_name: r.screenName ?? null })) };
}

export async function connect(
  ctx: AppContext,
  request: FastifyRequest,
  client: ClientInfo,
  body: { login: string; password: string },
) {
  const user = request.user;
  if (!user) throw unauthenticated();
  const other = await checkCredentials(ctx, client, body.login, body.password);
  if (other.id === user.id) throw ValidationError.field('login', 'This is the account you are signed in to.');
  await ctx.db.transaction(async (tx) => {
    await repo.linkBothWays(tx, user.id, other.id);
    await repo.audit(tx, user.id, 'account.linked', other.id);
  });
  return listLinks(ctx, user.id);
}

export async function unlink(ctx: AppContext, request: FastifyRequest, otherId: number) {
  const user = request.user;
  if (!user) throw unauthenticated();
  await repo.unlinkBothWays(ctx.db, user.id, otherId);
  return listLinks(ctx, user.id);
}

export async function switchAccount(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, targetId: number) {
  const user = request.user;
  if (!user) throw unauthenticated();
  if (!(await repo.isLinked(ctx.db, user.id, targetId)))
    throw forbidden('You can only switch to an account you have connected.');
  const target = await repo.findAccountById(ctx.db, targetId);
  if (!target || target.status !== 'active') throw forbidden('That account cannot be used.');
  await ctx.db.transaction(async (tx) => {
    await destroySession(tx, user.sessionId);
    await startSession(ctx, request, reply, target.id, tx);
    await repo.audit(tx, user.id, 'account.switched', target.id);
  });
  return sessionAnswer(ctx, target.id);
}

// ---------------------------------------------------------------- used by the account module

export const findAccount = (ctx: AppContext, id: number) => repo.findAccountById(ctx.db, id);
export const isEmailTaken = (ctx: AppContext, email: string, exceptId?: number) =>
  repo.emailTaken(ctx.db, email, exceptId);
export const isUsernameTaken = (ctx: AppContext, username: string, exceptId?: number) =>
  repo.usernameTaken(ctx.db, username, exceptId);
export const audit = repo.audit;

export async function sendEmailChangeLink(
  ctx: AppContext,
  log: FastifyBaseLogger,
  account: repo.AccountRow,
  newEmail: string,
) {
  await reserve(ctx, [[LIMITS.mailAccount, account.id]]);
  const link = await issueLink(ctx, ctx.db, account.id, 'email_change', newEmail);
  await deliver(ctx, log, mails.changeEmail(ctx, newEmail, account, link.ref));
  await deliver(ctx, log, mails.emailChangeRequested(account.email, account));
}

/** Deletion: every session and every link into the account end. */
export async function endAllSessions(db: Db | Tx, accountId: number): Promise<void> {
  await endAccessInto(db, accountId);
}

export { clearSessionCookies };

export async function notifyAccountDeleted(
  ctx: AppContext,
  log: FastifyBaseLogger,
  account: repo.AccountRow,
): Promise<void> {
  await deliver(ctx, log, mails.accountDeleted(account.email, account, ACCOUNT_PURGE_DAYS));
}

/** Periodic clean-up for the worker: expired sessions, and links and PINs dead for over a week. */
export async function cleanupAuthData(
  ctx: AppContext,
  now: Date = ctx.now(),
): Promise<{ sessions: number; tokens: number }> {
  return { sessions: await deleteExpiredSessions(ctx.db, now), tokens: await repo.deleteStaleTokens(ctx.db, now) };
}

/** Where messages for the admins go: every active admin's address, with the language to write in. */
export async function adminContacts(ctx: AppContext): Promise<Array<{ email: string; language: string }>> {
  return repo.adminContacts(ctx.db);
}
