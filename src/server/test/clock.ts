// Tests that move the app's clock (ctx.now()) away from the database's: whatever a writer stamps or
// compares must then be the moved time, never the database's now() (docs/decisions/0915, 0940).
import type { AppContext } from '../context';

/** A whole-millisecond moment `hours` away from now (the database keeps microseconds: no rounding). */
export const hoursFromNow = (hours: number) => new Date(Date.now() + Math.round(hours * 3_600_000));

/** Runs `fn` with ctx.now() at `at`, then gives the context its own clock back. */
export async function atClock<T>(ctx: AppContext, at: Date, fn: () => Promise<T>): Promise<T> {
  const own = ctx.now;
  ctx.now = () => at;
  try {
    return await fn();
  } finally {
    ctx.now = own;
  }
}
