// Brute-force limits (ASVS 2.2.1): attempts per account and per client address, in fixed windows.
// Every attempt is reserved before anything is checked: the counter is incremented first (atomically,
// in process or in Redis) and the attempt goes ahead only when the new count is within the limit.
// A failed check refunds nothing. Reading the count first and adding to it after the check would let
// simultaneous guesses all pass one stale count (issue 8, docs/decisions/0800).
import crypto from 'node:crypto';
import { msg } from '#shared/api/messages.ts';
import type { AppContext } from '../../context';
import { tooManyRequests } from '../../lib/errors';
import type { Slot } from '../../lib/rate-limiter';

export interface Limit {
  name: string;
  max: number;
  windowMs: number;
}

const MIN = 60_000;

export const LIMITS = {
  /** Password attempts for one account (login, connect). */
  loginAccount: { name: 'login:acct', max: 5, windowMs: 15 * MIN },
  /** Password attempts from one address, whatever the account. */
  loginAddress: { name: 'login:ip', max: 20, windowMs: 15 * MIN },
  /** Password attempts from a device that has signed in to the account before (known-devices.ts), and
   * from an address that has: each its own count, so the account's lock does not shut the owner out (0806). */
  loginDevice: { name: 'login:device', max: 5, windowMs: 15 * MIN },
  loginKnownAddress: { name: 'login:known-ip', max: 5, windowMs: 15 * MIN },
  /** Current-password attempts of a signed-in user (re-authentication). */
  reauthAccount: { name: 'reauth:acct', max: 5, windowMs: 15 * MIN },
  /** PIN attempts for one account, and from one address. */
  pinAccount: { name: 'pin:acct', max: 5, windowMs: 15 * MIN },
  pinAddress: { name: 'pin:ip', max: 20, windowMs: 15 * MIN },
  /** Mails and texts we send on request: they cost money and can be used to harass. */
  forgotEmail: { name: 'forgot:email', max: 3, windowMs: 60 * MIN },
  forgotAddress: { name: 'forgot:ip', max: 10, windowMs: 60 * MIN },
  smsAccount: { name: 'sms:acct', max: 5, windowMs: 60 * MIN },
  mailAccount: { name: 'mail:acct', max: 5, windowMs: 60 * MIN },
  registerAddress: { name: 'register:ip', max: 10, windowMs: 60 * MIN },
  /** Registrations naming one email address, and one username, from anywhere: the answer says whether
   * either is taken (decision 0100), so one target cannot be probed from many addresses (0807). */
  registerTarget: { name: 'register:target', max: 5, windowMs: 60 * MIN },
} satisfies Record<string, Limit>;

export type LimitCheck = [Limit, string | number];

export const limitKey = (limit: Limit, subject: string | number) => `${limit.name}:${String(subject).toLowerCase()}`;

/**
 * A subject someone typed (a login name, an email address) as it may appear in a limiter key: an HMAC,
 * never the text, so whatever was typed (a card number, an address) is not kept in Redis (issue 21).
 */
export const typedSubject = (ctx: AppContext, kind: string, text: string) =>
  `${kind}:${crypto.createHmac('sha256', ctx.secret).update(`limit|${kind}|${text.trim().toLowerCase()}`).digest('hex').slice(0, 32)}`;

/**
 * Reserves one attempt under each limit, in the order given, and throws 429 at the first one that
 * this attempt takes over its maximum; the limits after it are not counted (a blocked address does
 * not add to the counts of the accounts it names). Call it before the password, PIN or send it guards.
 */
export async function reserve(ctx: AppContext, checks: LimitCheck[]): Promise<Slot[]> {
  const slots: Slot[] = [];
  for (const [limit, subject] of checks) {
    const key = limitKey(limit, subject);
    const counted = await ctx.limiter.hit(key, limit.windowMs);
    if (counted.count > limit.max) throw rateLimited(counted.resetInMs);
    slots.push(ctx.limiter.slotOf(key, limit.windowMs, counted));
  }
  return slots;
}

/**
 * Hands back the one attempt `reserve` took under a limit, when it turned out to be no failure (a right
 * password from a shared address): the failures counted there before it stay (0102).
 */
export async function release(ctx: AppContext, slot: Slot): Promise<void> {
  await ctx.limiter.release(slot);
}

/** A success ends the count of failures for its subject (the right password was given). */
export async function resetLimit(ctx: AppContext, limit: Limit, subject: string | number): Promise<void> {
  await ctx.limiter.reset(limitKey(limit, subject));
}

function rateLimited(resetInMs: number) {
  const minutes = Math.max(1, Math.ceil(resetInMs / MIN));
  return tooManyRequests(msg('auth.tooManyAttemptsIn', { count: minutes }), Math.max(1, Math.ceil(resetInMs / 1000)));
}
