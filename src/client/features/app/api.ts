// App-level calls: the current user's data (spec section 1: fetched about 500 ms after start,
// language switch, complete-profile redirect, online ping).
import { useQuery } from '@tanstack/react-query';
import { ONLINE_PING_MS, USER_DATA_DELAY_MS } from '#shared/constants';
import type { CurrentUser } from '#shared/schemas/auth';
import { api, ApiError } from '#client/lib/api';

export type { CurrentUser };

export type Role = 'visitor' | CurrentUser['role'];

const startedAt = performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const currentUserKey = ['app', 'current-user'] as const;

/** null for a visitor. */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  // The first fetch waits until ~500 ms after start so it never competes with the first screen.
  const wait = USER_DATA_DELAY_MS - (performance.now() - startedAt);
  if (wait > 0) await sleep(wait);
  try {
    // :x only defeats intermediary caches; the server ignores its value.
    return await api<CurrentUser>(`/app/getData/${Date.now().toString(36)}`, { method: 'POST', handle: [401, 404] });
  } catch (error) {
    // 401 just means "visitor": it must not open the login modal.
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return null;
    throw error;
  }
}

export function useCurrentUser() {
  return useQuery({
    queryKey: currentUserKey,
    queryFn: fetchCurrentUser,
    staleTime: Number.POSITIVE_INFINITY,
    // Refetching the user data every 10 minutes is the online ping of spec section 1: the server
    // records last-seen on this call. Visitors are not pinged.
    refetchInterval: (query) => (query.state.data ? ONLINE_PING_MS : false),
    refetchIntervalInBackground: true,
  });
}

export function roleOf(user: CurrentUser | null | undefined): Role {
  return user ? user.role : 'visitor';
}

/** Spec section 1: a profile that is neither complete nor pending verification must be completed first. */
export function needsCompletion(user: CurrentUser | null | undefined): boolean {
  return !!user && !user.complete && user.verify !== 'pending';
}
