// Counting views and phone reveals once per visitor, profile and day (issue 8 item 13, decision 0808).
// The "seen" keys live in the rate limiter's store (in process, or Redis when REDIS_URL is set) for a
// day: no table, no migration, and Redis shares them between instances. A key holds an HMAC, never an
// address. Plain inputs: the routes say who the visitor is.
import crypto from 'node:crypto';
import type { AppContext } from '../context';
import { LimitsUnavailableError } from './rate-limiter';

/** Who is looking, as the routes see it. */
export interface Visitor {
  /** The signed-in account, when there is one: it is the visitor, whatever its address. */
  accountId?: number | null;
  address: string;
  userAgent?: string;
}

export type CountedEvent = 'view' | 'reveal';

/** Browsers behind one address (a household, an office) counted per profile and day; more are ignored. */
export const VISITORS_PER_ADDRESS = 3;
const DAY_MS = 86_400_000;

const hmac = (ctx: Pick<AppContext, 'secret'>, text: string) =>
  crypto.createHmac('sha256', ctx.secret).update(text).digest('base64url').slice(0, 32);

/**
 * Whether this event of this visitor is the first for the profile on `day` (YYYY-MM-DD), and so counts.
 * Atomic (one INCR per key): of simultaneous requests, exactly one counts. A visitor is its account, or
 * its address and browser; one address counts at most VISITORS_PER_ADDRESS visitors per profile and day,
 * so changing the User-Agent (or signing in to fresh accounts) does not inflate the numbers either.
 */
export async function countsToday(
  ctx: AppContext,
  event: CountedEvent,
  profileId: number,
  visitor: Visitor,
  day: string,
): Promise<boolean> {
  const who = hmac(
    ctx,
    visitor.accountId
      ? `account:${visitor.accountId}`
      : `visitor:${visitor.address}|${(visitor.userAgent ?? '').slice(0, 300)}`,
  );
  try {
    const seen = await ctx.limiter.hit(`seen:${event}:${profileId}:${day}:${who}`, DAY_MS);
    if (seen.count !== 1) return false;
    const fromAddress = await ctx.limiter.hit(
      `seen-ip:${event}:${profileId}:${day}:${hmac(ctx, `address:${visitor.address}`)}`,
      DAY_MS,
    );
    return fromAddress.count <= VISITORS_PER_ADDRESS;
  } catch (err) {
    // Redis unreachable: the page is still shown, the view is not counted (a count never doubles).
    if (err instanceof LimitsUnavailableError) return false;
    throw err;
  }
}
