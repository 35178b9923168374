// Calls of the auth area. The accounts work adds login, register and the rest here.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { LogoutResponse } from '#shared/schemas/auth';
import { api } from '#client/lib/api';

/** Spec section 4: logging out answers the URL the browser goes to next. */
export async function logout(): Promise<string> {
  const response = await api<LogoutResponse | null>('/auth/logout', { method: 'POST', loading: true });
  return typeof response?.data === 'string' && response.data ? response.data : '/';
}

export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const target = await logout();
    queryClient.clear();
    // A full load drops every piece of the signed-in state at once.
    window.location.assign(target);
  }, [queryClient]);
}
