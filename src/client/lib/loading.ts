// The global loading indicator (spec section 1: a spinner covers the view while loading is on).
// A counter, so overlapping calls keep it on until the last one ends.
import { createStore, useStore } from './store';

const pending = createStore(0);

export const loading = {
  start: () => pending.set((n) => n + 1),
  stop: () => pending.set((n) => Math.max(0, n - 1)),
  /** Spec section 8: any error switches the indicator off, whatever else is still running. */
  off: () => pending.set(0),
};

export function useLoading(): boolean {
  return useStore(pending) > 0;
}
