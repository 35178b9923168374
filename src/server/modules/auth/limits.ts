// Brute-force limits (ASVS 2.2.1): failures per account and per client address, in fixed windows.
// A limit reached answers 429 { message } before any password or PIN is checked.
import type { AppContext } from '../../context';
import { tooManyRequests } from '../../lib/errors';

export interface Limit {
  name: string;
  max: number;
  windowMs: number;
}

const MIN = 60_000;

export const LIMITS = {
  /** Wrong passwords for one account (login, connect). */
  loginAccount: { name: 'login:acct', max: 5, windowMs: 15 * MIN },
  /** Wrong passwords from one address, whatever the account. */
  loginAddress: { name: 'login:ip', max: 20, windowMs: 15 * MIN },
  /** Wrong current passwords of a signed-in user (re-authentication). */
  reauthAccount: { name: 'reauth:acct', max: 5, windowMs: 15 * MIN },
  /** Wrong PINs for one account, and from one address. */
  pinAccount: { name: 'pin:acct', max: 5, windowMs: 15 * MIN },
  pinAddress: { name: 'pin:ip', max: 20, windowMs: 15 * MIN },
  /** Mails and texts we send on request: they cost money and can be used to harass. */
  forgotEmail: { name: 'forgot:email', max: 3, windowMs: 60 * MIN },
  forgotAddress: { name: 'forgot:ip', max: 10, windowMs: 60 * MIN },
  smsAccount: { name: 'sms:acct', max: 5, windowMs: 60 * MIN },
  mailAccount: { name: 'mail:acct', max: 5, windowMs: 60 * MIN },
  registerAddress: { name: 'register:ip', max: 10, windowMs: 60 * MIN },
} satisfies Record<string, Limit>;

const key = (limit: Limit, subject: string | number) => `${limit.name}:${String(subject).toLowerCase()}`;

/** Throws 429 when any of the limits is already reached. */
export async function checkLimits(ctx: AppContext, checks: Array<[Limit, string | number]>): Promise<void> {
  const counts = await Promise.all(checks.map(([limit, subject]) => ctx.limiter.peek(key(limit, subject))));
  const blocked = counts
    .map((c, i) => ({ ...c, limit: checks[i][0] }))
    .filter((c) => c.count >= c.limit.max)
    .sort((a, b) => b.resetInMs - a.resetInMs)[0];
  if (blocked) throw rateLimited(blocked.resetInMs);
}

export async function recordHits(ctx: AppContext, hits: Array<[Limit, string | number]>): Promise<void> {
  await Promise.all(hits.map(([limit, subject]) => ctx.limiter.hit(key(limit, subject), limit.windowMs)));
}

/** Counts one use and throws 429 when it goes over the limit (for sends, where every call counts). */
export async function consume(ctx: AppContext, checks: Array<[Limit, string | number]>): Promise<void> {
  const counts = await Promise.all(
    checks.map(([limit, subject]) => ctx.limiter.hit(key(limit, subject), limit.windowMs)),
  );
  const over = counts.map((c, i) => ({ ...c, limit: checks[i][0] })).find((c) => c.count > c.limit.max);
  if (over) throw rateLimited(over.resetInMs);
}

export async function resetLimit(ctx: AppContext, limit: Limit, subject: string | number): Promise<void> {
  await ctx.limiter.reset(key(limit, subject));
}

function rateLimited(resetInMs: number) {
  const minutes = Math.max(1, Math.ceil(resetInMs / MIN));
  return tooManyRequests(
    `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    Math.max(1, Math.ceil(resetInMs / 1000)),
  );
}
