// Who is signed in: register, sign in and out, the current user, re-authentication, and the account
// facts other modules ask for. Plain inputs (the caller's address, user agent and known-device cookie,
// the page's language) and plain results: a new session comes back as tokens, and the route sets the
// cookies, so jobs, scripts and tests call these without HTTP.
import { msg } from '#shared/api/messages.ts';
import { ACCOUNT_PURGE_DAYS, MIN_AGE } from '#shared/constants.ts';
import { ageOn } from '#shared/rules/date-of-birth.ts';
import type { CurrentUser, RegisterBody, SessionResponse } from '#shared/schemas/auth.ts';
import type { AppContext } from '../../context';
import { type AuditEntry, writeAudit } from '../../db/audit';
import type { Tx } from '../../db/client';
import { forbidden, type Text, unauthenticated, ValidationError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { SessionUser } from '../../plugins/session';
import { presentCurrentUser, presentSession } from './auth.presenter';
import * as repo from './auth.repo';
import { deliver, type Log, mails } from './emails';
import {
  addressKey,
  type ClientInfo,
  isKnownAddress,
  knownDeviceFor,
  rememberAddress,
  rememberDevice,
} from './known-devices';
import { LIMITS, type LimitCheck, release, reserve, resetLimit, typedSubject } from './limits';
import { passwordProblem } from './password-policy';
import { endSession, type NewSession, startSession } from './session.service';
import { randomSecret } from './tokens';
import { sendEmailVerification } from './contact-verification.service';

/** An account as other modules see it (findAccount): every column but the password hash. */
export type Account = Omit<repo.AccountRow, 'passwordHash'>;

/** What a sign-in gives the route: the answer, the new session and the new known-device cookie value. */
export interface SignedIn {
  answer: SessionResponse;
  session: NewSession;
  knownDevices: string;
}

const BAD_CREDENTIALS = msg('auth.badCredentials');

let dummyHash: Promise<string> | undefined;
/** Checking a password against this when the account is unknown makes both answers take as long. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomSecret());
  return dummyHash;
}

export async function currentUser(ctx: AppContext, id: number): Promise<CurrentUser> {
  const row = await repo.currentUserRow(ctx.db, id);
  if (!row) throw unauthenticated();
  return presentCurrentUser(row);
}

export async function touchLastSeen(ctx: AppContext, id: number): Promise<boolean> {
  return repo.touchLastSeen(ctx.db, id, ctx.now());
}

/** The user, and where the browser goes next (an admin never to the completion screen, 0007). */
export async function sessionAnswer(ctx: AppContext, accountId: number): Promise<SessionResponse> {
  return presentSession(await currentUser(ctx, accountId));
}

/** A new password must pass the policy; the error names the field the form shows it under. */
export function assertPasswordAllowed(
  password: string,
  who: { username?: string; email?: string },
  field = 'password',
): void {
  const problem = passwordProblem(password, who);
  if (problem) throw ValidationError.field(field, problem);
}

// ---------------------------------------------------------------- register, login, logout

export interface RegisterInput {
  body: RegisterBody;
  client: ClientInfo;
  /** The page's language: it becomes the account's, for its emails and, once signed in, its display. */
  language: string;
  log: Log;
}

export async function register(ctx: AppContext, { body, client, language, log }: RegisterInput): Promise<SignedIn> {
  const perAddress = { ...LIMITS.registerAddress, max: ctx.env.REGISTER_LIMIT_PER_ADDRESS };
  // The address first, then the two names tried: the answer tells whether they are taken (0100, 0807).
  await reserve(ctx, [
    [perAddress, client.address],
    [LIMITS.registerTarget, typedSubject(ctx, 'email', body.email)],
    [LIMITS.registerTarget, typedSubject(ctx, 'username', body.username)],
  ]);
  const errors: Record<string, Text[]> = {};
  const problem = passwordProblem(body.password, body);
  if (problem) errors.password = [problem];
  // The shared schema checks the age with the browser's clock; the server's clock decides.
  if (ageOn(body.date_of_birth, ctx.now()) < MIN_AGE)
    errors.date_of_birth = [msg('auth:errors.tooYoung', { age: MIN_AGE })];
  if (await repo.emailTaken(ctx.db, body.email)) errors.email = [msg('auth.emailTaken')];
  if (await repo.usernameTaken(ctx.db, body.username)) errors.username = [msg('auth.usernameTaken')];
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const passwordHash = await hashPassword(body.password);
  let created: { account: repo.AccountRow; session: NewSession };
  try {
    created = await ctx.db.transaction(async (tx) => {
      const now = ctx.now();
      const account = await repo.insertAccountWithProfile(
        tx,
        {
          email: body.email,
          username: body.username,
          passwordHash,
          dateOfBirth: body.date_of_birth,
          termsAcceptedAt: now,
          language,
        },
        now,
      );
      await writeAudit(tx, { actorId: account.id, action: 'account.register', targetUserId: account.id, at: now });
      return { account, session: await startSession(ctx, account.id, client, tx) };
    });
  } catch (err) {
    // Two registrations racing for the same name: the unique index decides.
    if (
      (err as { code?: string; cause?: { code?: string } }).code === '23505' ||
      (err as { cause?: { code?: string } }).cause?.code === '23505'
    ) {
      throw ValidationError.field('email', msg('auth.emailOrUsernameTaken'));
    }
    throw err;
  }
  const { account, session } = created;
  await sendEmailVerification(ctx, log, account);
  const knownDevices = await rememberClient(ctx, client, account.id);
  return { answer: await sessionAnswer(ctx, account.id), session, knownDevices };
}

/**
 * Checks a login and password under the brute-force limits; the account, or a 422/429. An attempt from a
 * device or an address that has signed in to the account before is counted under its own limit, not the
 * account's, so strangers filling the account's lock do not shut the owner out (0806).
 */
export async function checkCredentials(ctx: AppContext, client: ClientInfo, login: string, password: string) {
  const account = await repo.findAccountByLogin(ctx.db, login);
  const device = account ? knownDeviceFor(ctx, client.knownDevices, account.id) : undefined;
  const knownAddress = account && !device ? await isKnownAddress(ctx, account.id, client.address) : false;
  const accountCheck: LimitCheck = device
    ? [LIMITS.loginDevice, `${device.accountId}:${device.nonce}`]
    : account && knownAddress
      ? [LIMITS.loginKnownAddress, addressKey(ctx, account.id, client.address)]
      : [LIMITS.loginAccount, account ? `id:${account.id}` : typedSubject(ctx, 'login', login)];
  // The address first: a blocked address does not count against the accounts it names.
  const [addressSlot] = await reserve(ctx, [[LIMITS.loginAddress, client.address], accountCheck]);
  const ok = account
    ? await verifyPassword(account.passwordHash, password)
    : (await verifyPassword(await dummyPasswordHash(), password), false);
  if (!account || !ok || account.status === 'deleted') throw ValidationError.field('login', BAD_CREDENTIALS);
  // A right password is no failure: it hands back its own place in the address's count (an office or a
  // carrier's shared address is not locked by its people signing in) but leaves the failures counted
  // there, or an account of an attacker's own would wipe them between guesses (0102).
  await release(ctx, addressSlot);
  await resetLimit(ctx, accountCheck[0], accountCheck[1]);
  if (account.status === 'suspended') throw forbidden(msg('auth.suspended'));
  return account;
}

/** After a right password: this device and this address are known for the account from now on. */
async function rememberClient(ctx: AppContext, client: ClientInfo, accountId: number): Promise<string> {
  await rememberAddress(ctx, accountId, client.address);
  return rememberDevice(ctx, client.knownDevices, accountId);
}

export interface LoginInput {
  login: string;
  password: string;
  client: ClientInfo;
  /** The session the browser still had, ended at sign-in (a new session every time: no fixation). */
  previousSessionId?: string;
}

export async function login(ctx: AppContext, input: LoginInput): Promise<SignedIn> {
  const account = await checkCredentials(ctx, input.client, input.login, input.password);
  if (input.previousSessionId) await endSession(ctx.db, input.previousSessionId);
  const session = await startSession(ctx, account.id, input.client);
  const knownDevices = await rememberClient(ctx, input.client, account.id);
  return { answer: await sessionAnswer(ctx, account.id), session, knownDevices };
}

/** Ends the session, when there is one; the route clears the cookies. The answer names where to go. */
export async function logout(ctx: AppContext, sessionId: string | undefined): Promise<{ data: string }> {
  if (sessionId) await endSession(ctx.db, sessionId);
  return { data: '/' };
}

// ---------------------------------------------------------------- re-authentication

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
  if (!ok) throw ValidationError.field(field, msg('auth.currentPasswordWrong'));
  await resetLimit(ctx, LIMITS.reauthAccount, actor.id);
}

// ---------------------------------------------------------------- what other modules ask

export async function findAccount(ctx: AppContext, id: number): Promise<Account | undefined> {
  const row = await repo.findAccountById(ctx.db, id);
  if (!row) return undefined;
  const { passwordHash: _hash, ...account } = row;
  return account;
}
export const isEmailTaken = (ctx: AppContext, email: string, exceptId?: number) =>
  repo.emailTaken(ctx.db, email, exceptId);
export const isUsernameTaken = (ctx: AppContext, username: string, exceptId?: number) =>
  repo.usernameTaken(ctx.db, username, exceptId);

/** An entry of the audit log written by the account flows, inside the caller's transaction. */
export async function recordAccountEvent(
  tx: Tx,
  event: AuditEntry & { action: `account.${string}`; targetUserId: number },
): Promise<void> {
  await writeAudit(tx, event);
}

export async function notifyAccountDeleted(ctx: AppContext, log: Log, account: Account): Promise<void> {
  await deliver(ctx, log, mails.accountDeleted(account.email, account, ACCOUNT_PURGE_DAYS));
}

/** Where messages for the admins go: every active admin's address, with the language to write in. */
export async function adminContacts(ctx: AppContext): Promise<Array<{ email: string; language: string }>> {
  return repo.adminContacts(ctx.db);
}
