// Money's database transactions (decision 0401). With the one lock order no two money transactions wait
// on each other in a circle, but PostgreSQL may still abort one: a deadlock with a path outside money
// (an account deletion's cascade), or a serialisation failure. Such a transaction wrote nothing, so it
// is run again, up to 3 times; then the caller is told to come back (503 with Retry-After), never 500.
import { msg } from '#shared/api/messages.ts';
import type { AppContext } from '../../context';
import { pgErrorCode, type Tx } from '../../db/client';
import { AppError } from '../../lib/errors';

export const RETRIES = 3;
const RETRYABLE = new Set(['40001', '40P01']);

export const isRetryable = (err: unknown) => RETRYABLE.has(pgErrorCode(err) ?? '');

export const busy = () => new AppError(503, 'busy', msg('errors.busy'), 1);

/** The payment provider could not be reached: nothing is known, the caller comes back later. */
export const providerUnavailable = () => new AppError(503, 'provider_unavailable', msg('money.providerUnavailable'));

/**
 * Runs `run` in a transaction of its own, retried as above. Inside `outer` it is a savepoint and not
 * retried here: the locks the outer transaction holds stay taken, so only its owner can start it again.
 */
export async function atomically<T>(ctx: AppContext, run: (tx: Tx) => Promise<T>, outer?: Tx): Promise<T> {
  if (outer) return outer.transaction(run);
  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.db.transaction(run);
    } catch (err) {
      if (!isRetryable(err)) throw err;
      if (attempt === RETRIES) throw busy();
    }
  }
}
