// In-app notices of the signed-in account (GET /api/notices, POST /api/notices/read): an auto-topup that
// could not run, an admin's warning. The server translates them into the caller's language.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MarkReadBody, MarkReadResponse, NoticesResponse } from '#shared/schemas/notices.ts';
import { api } from '#client/lib/api.ts';

export const noticesKey = ['notices'] as const;

export function useNotices(enabled = true) {
  return useQuery({
    queryKey: noticesKey,
    queryFn: ({ signal }) => api<NoticesResponse>('/notices', { signal }),
    enabled,
  });
}

export function useMarkNoticesRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkReadBody) =>
      api<z.infer<typeof MarkReadResponse>>('/notices/read', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noticesKey }),
  });
}
