// Calls of the edit screens (/edit/{id}, /edit/location/{id}, /edit/directory/listing/{id};
// docs/decisions/0310): the profile's sections, the overview, the city picker and the listings. Writes are
// TanStack mutations that invalidate what they change (the sections, the overview, the shell's user data:
// completing a profile ends the completion redirect).
import { useMutation, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import type {
  AttributeResponse,
  AvailableNowResponse,
  CitiesResponse,
  ListingsResponse,
  OverviewResponse,
  SetAttributeBody,
  TourDatesBody,
  UpdateBody,
  UpdateData,
  UpdateDataResponse,
} from '#shared/schemas/profile-edit.ts';
import { api } from '#client/lib/api.ts';
import { currentUserKey } from '#client/lib/app-data.ts';

export type { UpdateData };

export const OVERVIEW_DAYS = 30;

export const editKeys = {
  all: (id: number) => ['edit', id] as const,
  data: (id: number) => ['edit', id, 'data'] as const,
  overview: (id: number) => ['edit', id, 'overview'] as const,
  listings: (id: number) => ['edit', id, 'listings'] as const,
  cities: (q: string, country?: string) => ['edit', 'cities', q, country ?? ''] as const,
};

const validId = (id: number) => Number.isInteger(id) && id > 0;

export function useUpdateData(id: number) {
  return useQuery({
    queryKey: editKeys.data(id),
    queryFn: async ({ signal }) => (await api<UpdateDataResponse>(`/getUpdateData/${id}`, { signal })).data,
    enabled: validId(id),
    staleTime: 0,
  });
}

export function useOverview(id: number) {
  return useQuery({
    queryKey: editKeys.overview(id),
    queryFn: async ({ signal }) =>
      (await api<OverviewResponse>(`/edit/getOverview/${id}/${OVERVIEW_DAYS}`, { signal })).data,
    enabled: validId(id),
    staleTime: 0,
  });
}

export function useListings(id: number) {
  return useQuery({
    queryKey: editKeys.listings(id),
    queryFn: async ({ signal }) => (await api<ListingsResponse>(`/edit/getListings/${id}`, { signal })).data,
    enabled: validId(id),
    staleTime: 0,
  });
}

/** The city picker: imported cities whose name (or slug) holds the text. */
export function useFindCities(q: string, country?: string) {
  const text = q.trim();
  return useQuery({
    queryKey: editKeys.cities(text, country),
    queryFn: async ({ signal }) =>
      (await api<CitiesResponse>('/edit/findCities', { query: { q: text, country }, signal })).data,
    enabled: text.length >= 2,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}

/** Everything a saved change can move: the sections, the overview, the listings and the shell's user data. */
function useInvalidateProfile(id: number) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: editKeys.all(id) }),
      client.invalidateQueries({ queryKey: currentUserKey }),
    ]);
}

type SectionBody = Omit<UpdateBody, 'user_id'>;

/** POST /update for the profile `id` (an admin editing someone else's names it as user_id). */
export function useUpdateSection(id: number, self: boolean) {
  const client = useQueryClient();
  const invalidate = useInvalidateProfile(id);
  return useMutation({
    mutationFn: async (body: SectionBody) =>
      (
        await api<UpdateDataResponse>('/update', {
          method: 'POST',
          body: self ? body : { ...body, user_id: id },
        })
      ).data,
    onSuccess: (data) => client.setQueryData(editKeys.data(id), data),
    onSettled: invalidate,
  });
}

export function useSetAttribute(id: number) {
  const invalidate = useInvalidateProfile(id);
  return useMutation({
    mutationFn: async (body: SetAttributeBody) =>
      (await api<AttributeResponse>(`/edit/setAttribute/${id}`, { method: 'POST', body })).data,
    onSettled: invalidate,
  });
}

export function useSetTourDates(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: TourDatesBody) =>
      (await api<ListingsResponse>(`/edit/setTourDates/${id}`, { method: 'POST', body })).data,
    onSuccess: (data) => client.setQueryData(editKeys.listings(id), data),
  });
}

/** After an avatar upload on the media screens: the profile may have become complete. */
export function useRefreshProfile(id: number) {
  return useInvalidateProfile(id);
}

/** "Available now" for `hours` from this moment (0: off now); the overview shows its end (docs/decisions/0320). */
export function useSetAvailableNow(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (hours: number) =>
      (await api<AvailableNowResponse>(`/edit/setAvailableNow/${id}`, { method: 'POST', body: { hours } })).data,
    onSettled: () => client.invalidateQueries({ queryKey: editKeys.overview(id) }),
  });
}
