// Fault injection for the money tests, off outside NODE_ENV=test.
// - faultPoint: with MONEY_FAULT_POINT naming a point, the process kills itself there with SIGKILL (no
//   cleanup, no finally), as a power cut would (the crash test, decision 0404).
// - pausePoint: a test in the same process registers a hook (onPause) that holds a request at a named
//   point inside its transaction, so two money operations can be interleaved exactly as a race would
//   (the lock-order test, decision 0401; a refund racing a chargeback, decision 0423). A hook may also
//   throw, standing in for the database.
import type { AppContext } from '../../context';
import type { Env } from '../../env';

export function faultPoint(ctx: AppContext, name: NonNullable<Env['MONEY_FAULT_POINT']>) {
  if (ctx.env.NODE_ENV === 'test' && ctx.env.MONEY_FAULT_POINT === name) process.kill(process.pid, 'SIGKILL');
}

export type PausePoint =
  /** A cart order has consumed its cart items, before its ledger debit. */
  | 'order_cart_consumed'
  /** A card or crypto payment's load is on the ledger, before its order is paid. */
  | 'payment_credited'
  /**
   * A refund's intent is written (committed, decision 0423), before its provider is asked to refund: what
   * is booked meanwhile (a chargeback) races the refund here.
   */
  | 'refund_intent_written';

const pauseHooks = new Map<PausePoint, () => Promise<void>>();

/** Test only: runs `hook` whenever a request reaches `point`; returns the function that removes it. */
export function onPause(point: PausePoint, hook: () => Promise<void>) {
  pauseHooks.set(point, hook);
  return () => void pauseHooks.delete(point);
}

export async function pausePoint(ctx: AppContext, point: PausePoint) {
  if (ctx.env.NODE_ENV !== 'test') return;
  await pauseHooks.get(point)?.();
}
