// The open-profile event of spec section 2: a list asks for a profile to open over it. The modal
// (mounted once by the shell) follows this store; the list hands over how to find its neighbours so
// a swipe can ask for the next (+) or previous (-) profile.
import { createStore, useStore } from '#client/lib/store.ts';

export interface ProfileListContext {
  /** Ids of the list as far as it is loaded, in order. */
  ids(): number[];
  /** Loads the next page; resolves with all ids loaded then, or null when there is no more. */
  loadMore?(): Promise<number[] | null>;
}

export interface ProfileModalState {
  id: number | null;
  context: ProfileListContext | null;
}

const store = createStore<ProfileModalState>({ id: null, context: null });

export const profileModalStore = store;
export const useProfileModal = () => useStore(store);

export function openProfile(id: number, context: ProfileListContext | null = null): void {
  store.set({ id, context });
}

export function closeProfile(): void {
  store.set((s) => (s.id === null ? s : { id: null, context: null }));
}

/** The id `direction` steps away in the list, loading the next page when at the end of it. */
export async function neighbourOf(
  id: number,
  direction: 1 | -1,
  context: ProfileListContext | null,
): Promise<number | null> {
  if (!context) return null;
  let ids = context.ids();
  const index = ids.indexOf(id);
  if (index < 0) return null;
  if (index + direction >= ids.length && direction > 0 && context.loadMore) ids = (await context.loadMore()) ?? ids;
  return ids[index + direction] ?? null;
}
