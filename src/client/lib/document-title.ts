// The shell titles every page from its route meta (spec section 1); a screen that knows better
// (a profile's name, a city) overrides it while mounted. A store rather than writing
// document.title directly, because child effects run before the shell's and would be overwritten.
// Overrides stack: the one that became active last wins (the profile modal over its directory page),
// and when it goes, the one under it is the title again.
import { useEffect, useRef } from 'react';
import { createStore, useStore } from './store';

interface Entry {
  /** When the override became active; kept while only its text changes, so it keeps its place. */
  seq: number;
  title: string;
}

const overrides = createStore<readonly Entry[]>([]);
let counter = 0;

export const useTitleOverride = () => useStore(overrides).at(-1)?.title ?? null;

export function useDocumentTitle(title: string | null | undefined): void {
  const seq = useRef<number | null>(null);
  useEffect(() => {
    if (!title) {
      seq.current = null;
      return;
    }
    seq.current ??= ++counter;
    const entry: Entry = { seq: seq.current, title };
    overrides.set((list) => [...list.filter((e) => e.seq !== entry.seq), entry].sort((a, b) => a.seq - b.seq));
    return () => overrides.set((list) => list.filter((e) => e !== entry));
  }, [title]);
}
