// Calls of the admin panel (spec section 7 "Admin"; src/shared/schemas/admin.ts) with their query hooks.
// Every write is a mutation that invalidates what it changes; a flag also broadcasts the flag event.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminSearchPage,
  AdminUser,
  AdminUserResponse,
  AuditLogBody,
  AuditLogPage,
  DuplicatesPage,
  Overview,
  OverviewResponse,
  ReportsPage,
  ResolveReportBody,
  ScanDuplicatesResponse,
  VerificationDataPage,
  VerifyBody,
  VerifyVideoBody,
  VideosPage,
  WarnResponse,
} from '#shared/schemas/admin.ts';
import type { AdminAutoTopupPage } from '#shared/schemas/auto-topup.ts';
import type { z } from 'zod';
import type {
  AdjustBalanceBody,
  HeldAccountsResponse,
  LedgerChangeResponse,
  RecordBankTransferBody,
  RefundableLoadResponse,
  RefundLoadBody,
  RefundResultResponse,
  ReleaseHoldBody,
  ReleaseHoldResponse,
  UpdateProductBody,
} from '#shared/schemas/money.ts';
import { api } from '#client/lib/api.ts';
import { broadcastFlag } from './flag-events';

export type { AdminUser, Overview };

export const adminKeys = {
  all: ['admin'] as const,
  overview: ['admin', 'overview'] as const,
  user: (id: number) => ['admin', 'user', id] as const,
  search: (q: string, page: number) => ['admin', 'search', q, page] as const,
  verification: (status: string, page: number) => ['admin', 'verification', status, page] as const,
  videos: (page: number) => ['admin', 'videos', page] as const,
  reports: (status: string, page: number) => ['admin', 'reports', status, page] as const,
  duplicates: (status: string, page: number) => ['admin', 'duplicates', status, page] as const,
  audit: (filter: AuditLogBody, page: number) => ['admin', 'audit', filter, page] as const,
  autoTopup: (page: number) => ['admin', 'auto-topup', page] as const,
  held: ['admin', 'held'] as const,
  load: (paymentId: number) => ['admin', 'load', paymentId] as const,
};

const fresh = { staleTime: 0, placeholderData: <T>(previous: T | undefined) => previous };

// ---------------------------------------------------------------- reads

export function useOverview() {
  return useQuery({
    queryKey: adminKeys.overview,
    queryFn: async ({ signal }) => (await api<OverviewResponse>('/admin/getOverview', { signal })).data,
    staleTime: 0,
  });
}

export function useAdminUser(id: number | null) {
  return useQuery({
    queryKey: adminKeys.user(id ?? 0),
    queryFn: async ({ signal }) => (await api<AdminUserResponse>(`/admin/getUserData/${id}`, { signal })).data,
    enabled: id !== null && id > 0,
    staleTime: 0,
  });
}

export function useUserSearch(q: string, page: number) {
  return useQuery({
    queryKey: adminKeys.search(q, page),
    queryFn: ({ signal }) =>
      api<AdminSearchPage>('/admin/search', { method: 'POST', query: { page }, body: { q }, signal }),
    ...fresh,
  });
}

export function useVerificationQueue(status: 'pending' | 'verified' | 'declined', page: number) {
  return useQuery({
    queryKey: adminKeys.verification(status, page),
    queryFn: ({ signal }) =>
      api<VerificationDataPage>('/admin/getVerificationData', {
        method: 'POST',
        query: { page },
        body: { status },
        signal,
      }),
    ...fresh,
  });
}

export function useVideoQueue(page: number) {
  return useQuery({
    queryKey: adminKeys.videos(page),
    queryFn: ({ signal }) => api<VideosPage>('/admin/getVideos', { query: { page }, signal }),
    ...fresh,
  });
}

export function useReports(status: 'open' | 'resolved', page: number) {
  return useQuery({
    queryKey: adminKeys.reports(status, page),
    queryFn: ({ signal }) =>
      api<ReportsPage>('/admin/getReports', { method: 'POST', query: { page }, body: { status }, signal }),
    ...fresh,
  });
}

export function useDuplicates(status: 'open' | 'dismissed', page: number) {
  return useQuery({
    queryKey: adminKeys.duplicates(status, page),
    queryFn: ({ signal }) => api<DuplicatesPage>('/admin/getDuplicates', { query: { page, status }, signal }),
    ...fresh,
  });
}

export function useAuditLog(filter: AuditLogBody, page: number) {
  return useQuery({
    queryKey: adminKeys.audit(filter, page),
    queryFn: ({ signal }) =>
      api<AuditLogPage>('/admin/getAuditLog', { method: 'POST', query: { page }, body: filter, signal }),
    ...fresh,
  });
}

export function useAutoTopups(page: number) {
  return useQuery({
    queryKey: adminKeys.autoTopup(page),
    queryFn: ({ signal }) => api<AdminAutoTopupPage>('/admin/getAutoTopup', { query: { page }, signal }),
    ...fresh,
  });
}

/** Held accounts (decision 0423), longest held first. */
export function useHeldAccounts() {
  return useQuery({
    queryKey: adminKeys.held,
    queryFn: ({ signal }) => api<HeldAccountsResponse>('/admin/heldAccounts', { signal }),
    ...fresh,
  });
}

/** A credited load as the refund form shows it; null id: nothing asked yet. */
export function useRefundableLoad(paymentId: number | null) {
  return useQuery({
    queryKey: adminKeys.load(paymentId ?? 0),
    queryFn: async ({ signal }) =>
      // A load that is not there is the form's own message, not the not-found page.
      (await api<z.infer<typeof RefundableLoadResponse>>(`/admin/loads/${paymentId}`, { signal, handle: [404] })).data,
    enabled: paymentId !== null,
    retry: false,
    staleTime: 0,
  });
}

// ---------------------------------------------------------------- writes

/** Everything the admin screens show may have changed: refetch what is on screen. */
function useInvalidateAdmin() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
}

export function useFlag() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: async (body: { user_id: number; flagged?: boolean }) =>
      (await api<AdminUserResponse>('/admin/flag', { method: 'POST', body })).data,
    onSuccess: async (user) => {
      broadcastFlag({ user_id: user.user_id, flagged: user.flagged });
      await invalidate();
    },
  });
}

export function useWarn() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: async (userId: number) => (await api<z.infer<typeof WarnResponse>>(`/admin/warn/${userId}`)).data,
    onSuccess: async (result) => {
      // The profile's pictures are gone: open screens showing it refetch.
      broadcastFlag({ user_id: result.user.user_id, flagged: result.user.flagged });
      await invalidate();
    },
  });
}

export function useVerify() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (body: VerifyBody) => api('/admin/verify', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useVerifyVideo() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: ({ id, ...body }: VerifyVideoBody & { id: number }) =>
      api(`/admin/verifyVideo/${id}`, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useResolveReport() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (body: ResolveReportBody) => api('/admin/resolveReport', { method: 'POST', body }),
    onSuccess: async (_result, body) => {
      if (body.action !== 'none') broadcastFlag(null);
      await invalidate();
    },
  });
}

export function useDismissDuplicate() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: (matchId: number) => api('/admin/dismissDuplicate', { method: 'POST', body: { match_id: matchId } }),
    onSuccess: invalidate,
  });
}

export function useScanDuplicates() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: async () =>
      (await api<z.infer<typeof ScanDuplicatesResponse>>('/admin/scanDuplicates', { method: 'POST', loading: true }))
        .data,
    onSuccess: invalidate,
  });
}

// Money: the money module's admin calls.

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProductBody) => api('/admin/products', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useAdjustBalance() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: async (body: AdjustBalanceBody) =>
      (await api<z.infer<typeof LedgerChangeResponse>>('/admin/adjustBalance', { method: 'POST', body })).data,
    onSuccess: invalidate,
  });
}

export function useRecordBankTransfer() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: async (body: RecordBankTransferBody) =>
      (await api<z.infer<typeof LedgerChangeResponse>>('/admin/recordBankTransfer', { method: 'POST', body })).data,
    onSuccess: invalidate,
  });
}

export function useRefundLoad() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: async (body: RefundLoadBody) =>
      (await api<z.infer<typeof RefundResultResponse>>('/admin/refundLoad', { method: 'POST', body })).data,
    onSuccess: invalidate,
  });
}

export function useReleaseHold() {
  const invalidate = useInvalidateAdmin();
  return useMutation({
    mutationFn: async (body: ReleaseHoldBody) =>
      (await api<z.infer<typeof ReleaseHoldResponse>>('/admin/releaseHold', { method: 'POST', body })).data,
    onSuccess: invalidate,
  });
}
