// The shell titles every page from its route meta (spec section 1); a screen that knows better
// (a profile's name, a city) overrides it while mounted. A store rather than writing
// document.title directly, because child effects run before the shell's and would be overwritten.
import { useEffect } from 'react';
import { createStore, useStore } from './store';

const override = createStore<string | null>(null);

export const useTitleOverride = () => useStore(override);

export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    override.set(title);
    return () => override.set((current) => (current === title ? null : current));
  }, [title]);
}
