// Which user the admin modal shows (spec section 2: 'Admin - ' plus the screen name, a Flag toggle,
// Close). Any admin screen opens it; the shell's host renders it.
import { createStore, useStore } from '#client/lib/store.ts';

const store = createStore<{ userId: number | null }>({ userId: null });

export const useAdminModal = () => useStore(store);

export function openAdminModal(userId: number): void {
  store.set({ userId });
}

export function closeAdminModal(): void {
  store.set((s) => (s.userId === null ? s : { userId: null }));
}
