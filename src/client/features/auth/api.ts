// Calls of the auth area. The accounts work adds login, register and the rest here.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '#client/lib/api';

interface LogoutResponse {
  /** Spec section 4: the URL the browser is sent to after logging out. */
  data?: string;
}

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
