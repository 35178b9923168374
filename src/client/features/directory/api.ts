// Calls of the public directory with their query hooks. Types come from the shared Zod schemas.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CountriesResponse, DirectoryFilter, DirectoryPage, Navigation, Profile } from '#shared/schemas/directory';
import { api } from '#client/lib/api';

export type Countries = z.infer<typeof CountriesResponse>['data'];
export type { DirectoryFilter, DirectoryPage, Navigation, Profile };
export type ProfileRef = { id: number } | { name: string };

/** Drops an absent place so equal filters hash equally. */
export function normalizeFilter(filter: DirectoryFilter): DirectoryFilter {
  return filter.place
    ? { category: filter.category, country: filter.country, place: filter.place }
    : { category: filter.category, country: filter.country };
}

export const directoryKeys = {
  countries: ['directory', 'countries'] as const,
  navigation: (filter: DirectoryFilter) => ['directory', 'navigation', normalizeFilter(filter)] as const,
  list: (filter: DirectoryFilter) => ['directory', 'list', normalizeFilter(filter)] as const,
  search: (q: string) => ['directory', 'search', q] as const,
  profile: (ref: ProfileRef) => ['directory', 'profile', ref] as const,
};

export async function fetchCountries(signal?: AbortSignal): Promise<Countries> {
  const response = await api<z.infer<typeof CountriesResponse>>('/directory/countries', { signal });
  return response.data;
}

export function fetchNavigation(filter: DirectoryFilter, signal?: AbortSignal): Promise<Navigation> {
  return api<Navigation>('/directory/getNavigation', { method: 'POST', body: normalizeFilter(filter), signal });
}

export function fetchDirectoryPage(
  filter: DirectoryFilter,
  page: number,
  signal?: AbortSignal,
): Promise<DirectoryPage> {
  return api<DirectoryPage>('/directory/getDirectory', {
    method: 'POST',
    query: { page },
    body: normalizeFilter(filter),
    signal,
  });
}

export function fetchSearchPage(q: string, page: number, signal?: AbortSignal): Promise<DirectoryPage> {
  return api<DirectoryPage>('/directory/search', { method: 'POST', query: { page }, body: { q }, signal });
}

export async function fetchProfile(ref: ProfileRef, signal?: AbortSignal): Promise<Profile> {
  const path = 'id' in ref ? `/getProfile/${ref.id}` : `/getProfileByName/${encodeURIComponent(ref.name)}`;
  const response = await api<{ profile: Profile }>(path, {
    query: 'id' in ref ? { render: 1 } : undefined,
    signal,
    loading: true,
  });
  return response.profile;
}

export function useCountries() {
  return useQuery({
    queryKey: directoryKeys.countries,
    queryFn: ({ signal }) => fetchCountries(signal),
    staleTime: 5 * 60_000,
  });
}

/**
 * Spec section 4: the navigation result is cached keyed by a hash of the filter object and reused
 * whenever that hash exists. The query key is the filter itself, which TanStack Query hashes
 * (stable, key-order independent); staleTime Infinity means a cached entry is never refetched.
 */
export function useNavigation(filter: DirectoryFilter) {
  return useQuery({
    queryKey: directoryKeys.navigation(filter),
    queryFn: ({ signal }) => fetchNavigation(filter, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30 * 60_000,
  });
}

/** A paged list of profile items: a directory listing or search results. */
export interface ProfileListSource {
  queryKey: readonly unknown[];
  fetchPage: (page: number, signal: AbortSignal) => Promise<DirectoryPage>;
}

export const listingSource = (filter: DirectoryFilter): ProfileListSource => ({
  queryKey: directoryKeys.list(filter),
  fetchPage: (page, signal) => fetchDirectoryPage(filter, page, signal),
});

export const searchSource = (q: string): ProfileListSource => ({
  queryKey: directoryKeys.search(q),
  fetchPage: (page, signal) => fetchSearchPage(q, page, signal),
});

/**
 * Pages of one list. `enabled` stays false until the infinite-scroll trigger is first seen
 * (spec: the first sighting fetches page 1), later sightings call fetchNextPage.
 */
export function useProfilePages(source: ProfileListSource, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: source.queryKey,
    queryFn: ({ pageParam, signal }) => source.fetchPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: DirectoryPage) => (last.has_more ? last.page + 1 : undefined),
    enabled,
    staleTime: 5 * 60_000,
  });
}

export function useProfile(ref: ProfileRef) {
  return useQuery({ queryKey: directoryKeys.profile(ref), queryFn: ({ signal }) => fetchProfile(ref, signal) });
}
