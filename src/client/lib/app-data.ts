// App-level calls: the current user's data (spec section 1: fetched about 500 ms after start,
// language switch, complete-profile redirect, online ping).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { CSRF_COOKIE, ONLINE_PING_MS, USER_DATA_DELAY_MS } from '#shared/constants.ts';
import type { AppConfig, PingResponse } from '#shared/schemas/app.ts';
import type { CurrentUser } from '#shared/schemas/auth.ts';
import { api, ApiError } from './api';
import { readCookie } from './cookies';

export type { CurrentUser };

export type Role = 'visitor' | CurrentUser['role'];

const startedAt = performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const currentUserKey = ['app', 'current-user'] as const;

/** null for a visitor. */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  // Spec section 1: only signed-in users get the user-data fetch. A session always comes with the
  // readable CSRF cookie, so without it this is a visitor, and a visitor's page makes no call that
  // answers 401 (the server drops the cookie with any 401, so a dead session costs one call).
  if (!readCookie(CSRF_COOKIE)) return null;
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
  });
}

/** POST /app/ping (docs/decisions/0100): records the signed-in user as online. */
export function pingOnline(): Promise<PingResponse> {
  // A background call: whatever happens, it raises no dialog.
  return api<PingResponse>('/app/ping', { method: 'POST', handle: [0, 401, 403, 404, 429, 500, 502, 503, 504] });
}

/**
 * Spec section 1: a signed-in user is pinged as online on start and every 10 minutes. A 401 means
 * the session ended elsewhere (password changed, account deleted): the user data is asked again,
 * which turns the app back into a visitor's.
 */
export function useOnlinePing(userId: number | null | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    const ping = () =>
      void pingOnline().catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401)
          void queryClient.invalidateQueries({ queryKey: currentUserKey });
      });
    ping();
    const timer = window.setInterval(ping, ONLINE_PING_MS);
    return () => window.clearInterval(timer);
  }, [userId, queryClient]);
}

/** The session ended on the server (account deleted): the app forgets the user without asking again. */
export function useSessionEnded(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    queryClient.setQueryData(currentUserKey, null);
  }, [queryClient]);
}

export function roleOf(user: CurrentUser | null | undefined): Role {
  return user ? user.role : 'visitor';
}

export type { AppConfig };

/** GET /app/config: what the browser needs of the server's configuration. */
export function useAppConfig() {
  return useQuery({
    queryKey: ['app', 'config'],
    queryFn: () => api<AppConfig>('/app/config'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
