// Calls of /edit/auto-topup/{id} (spec section 7 "Auto-topup"; src/shared/schemas/auto-topup.ts): the
// timers and last runs, the weekly forecast against the balance, and setting or deleting a timer. Each
// write answers the whole screen's data, which replaces the held copy; the forecast is asked again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AutoTopupData,
  AutoTopupDataResponse,
  AutoTopupForecast,
  AutoTopupForecastResponse,
  DeleteTimerBody,
  SetTimerBody,
} from '#shared/schemas/auto-topup.ts';
import { api } from '#client/lib/api.ts';

export type { AutoTopupData, AutoTopupForecast };

export const autoTopupKeys = {
  all: ['auto-topup'] as const,
  data: (userId: number) => ['auto-topup', userId, 'data'] as const,
  forecast: (userId: number) => ['auto-topup', userId, 'forecast'] as const,
};

const valid = (userId: number) => Number.isInteger(userId) && userId > 0;

export function useAutoTopup(userId: number) {
  return useQuery({
    queryKey: autoTopupKeys.data(userId),
    queryFn: async ({ signal }) =>
      (await api<z.infer<typeof AutoTopupDataResponse>>(`/auto-topup/getData/${userId}`, { signal })).data,
    enabled: valid(userId),
    staleTime: 0,
  });
}

export function useAutoTopupForecast(userId: number) {
  return useQuery({
    queryKey: autoTopupKeys.forecast(userId),
    queryFn: async ({ signal }) =>
      (await api<z.infer<typeof AutoTopupForecastResponse>>(`/auto-topup/getCart/${userId}`, { signal })).data,
    enabled: valid(userId),
    staleTime: 0,
  });
}

function useTimerWrite<B>(userId: number, path: 'setTimer' | 'deleteTimer') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: B) =>
      (
        await api<z.infer<typeof AutoTopupDataResponse>>(`/auto-topup/${path}/${userId}`, {
          method: 'POST',
          body,
          loading: true,
        })
      ).data,
    onSuccess: (data) => {
      queryClient.setQueryData(autoTopupKeys.data(userId), data);
      void queryClient.invalidateQueries({ queryKey: autoTopupKeys.forecast(userId) });
    },
  });
}

export const useSetTimer = (userId: number) => useTimerWrite<SetTimerBody>(userId, 'setTimer');
export const useDeleteTimer = (userId: number) => useTimerWrite<DeleteTimerBody>(userId, 'deleteTimer');
