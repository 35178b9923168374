// The flag event of spec section 4: after an admin flags (or warns, or hides through a report) a user,
// every open screen reacts — this tab and the other tabs of the browser (BroadcastChannel) refetch what
// they show, so a flagged profile leaves the lists that are open. Tiny on purpose: the shell loads it.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';

export interface FlagEvent {
  user_id: number;
  flagged: boolean;
}

const EVENT = 'admin:flag';
const CHANNEL = 'admin-flag';

const channel = (): BroadcastChannel | null =>
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);

/** `null`: something about a profile changed without a flag state to tell (a report's hide). */
export function broadcastFlag(event: FlagEvent | null): void {
  window.dispatchEvent(new CustomEvent<FlagEvent | null>(EVENT, { detail: event }));
  const c = channel();
  c?.postMessage(event);
  c?.close();
}

/** Calls `listener` for flag events of this tab and of the others. */
export function onFlag(listener: (event: FlagEvent | null) => void): () => void {
  const local = (e: Event) => listener((e as CustomEvent<FlagEvent | null>).detail);
  window.addEventListener(EVENT, local);
  const c = channel();
  if (c) c.onmessage = (e: MessageEvent<FlagEvent | null>) => listener(e.data);
  return () => {
    window.removeEventListener(EVENT, local);
    c?.close();
  };
}

/** Mounted once (by the shell's admin host): open screens refetch when a flag event arrives. */
export function useFlagEventRefresh(): void {
  const queryClient = useQueryClient();
  useEffect(() => onFlag(() => void queryClient.invalidateQueries()), [queryClient]);
}
