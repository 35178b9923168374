// Calls of the public directory with their query hooks. Types come from the shared Zod schemas.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Category } from '#shared/constants.ts';
import type { CommentCreated, CommentDeleted, CommentsPage } from '#shared/schemas/comments.ts';
import type {
  CountriesResponse,
  DirectoryFilter,
  FeedbackData as FeedbackDataSchema,
  DirectoryPage,
  Navigation,
  NearbyPage,
  Profile,
  ProfileItem,
  ProfileResponse,
  ToursAhead,
} from '#shared/schemas/directory.ts';
import type { NotificationBody } from '#shared/api/errors.ts';
import { api, ApiError } from '#client/lib/api.ts';
import { itemLocation } from '#shared/rules/listing-item.ts';
import { ssrKeys } from '#shared/views/ssr-state.ts';
import { filterKey, hasFilters, normalizeFilters } from '#shared/rules/list-filters.ts';
import type { ListFilters } from '#shared/schemas/directory.ts';

export type Countries = z.infer<typeof CountriesResponse>['data'];
export type { ListFilters };
export type { CommentsPage, DirectoryFilter, DirectoryPage, Navigation, Profile, ProfileItem };
export type ProfileRef = { id: number } | { name: string };
export type NearbyItem = z.infer<typeof NearbyPage>['data'][number];
export type FeedbackReason = FeedbackData['reason'];
/** What the report form sends (the body's input, before the server trims it). */
export type FeedbackData = z.input<typeof FeedbackDataSchema>;

/** Every status: for calls whose failure the visitor need not hear about (statistics). */
const QUIET = [0, 400, 401, 403, 404, 409, 415, 422, 429, 500, 502, 503, 504];

/** Drops an absent place so equal filters hash equally. */
export function normalizeFilter(filter: DirectoryFilter): DirectoryFilter {
  return filter.place
    ? { category: filter.category, country: filter.country, place: filter.place }
    : { category: filter.category, country: filter.country };
}

// The keys the server's first HTML fills (shared/views/ssr-state) are the shared ones.
export const directoryKeys = {
  countries: (category: Category) => ssrKeys.countries(category),
  navigation: (filter: DirectoryFilter) => ssrKeys.navigation(normalizeFilter(filter)),
  list: (filter: DirectoryFilter, filters?: ListFilters) => ssrKeys.list(normalizeFilter(filter), filterKey(filters)),
  search: (q: string, filters?: ListFilters) => ssrKeys.search(q, filterKey(filters)),
  nearby: (lat: number, lng: number, filters?: ListFilters) =>
    ['directory', 'nearby', lat, lng, ...(hasFilters(filters) ? [filterKey(filters)] : [])] as const,
  profile: (ref: ProfileRef) => ssrKeys.profile(ref),
  bookmark: (id: number) => ['directory', 'bookmark', id] as const,
  comments: (profileId: number) => ['directory', 'comments', profileId] as const,
  toursAhead: (filter: DirectoryFilter) => ['directory', 'tours-ahead', normalizeFilter(filter)] as const,
};

export async function fetchCountries(category: Category, signal?: AbortSignal): Promise<Countries> {
  const query = category === 'escorts' ? undefined : { category };
  const response = await api<z.infer<typeof CountriesResponse>>('/directory/countries', { query, signal });
  return response.data;
}

export function fetchNavigation(filter: DirectoryFilter, signal?: AbortSignal): Promise<Navigation> {
  return api<Navigation>('/directory/getNavigation', { method: 'POST', body: normalizeFilter(filter), signal });
}

/** The body's `filters`, normalised (absent without any: the unfiltered call as before). */
const withFilters = (filters?: ListFilters) => (hasFilters(filters) ? { filters: normalizeFilters(filters) } : {});

export function fetchDirectoryPage(
  filter: DirectoryFilter,
  page: number,
  signal?: AbortSignal,
  filters?: ListFilters,
): Promise<DirectoryPage> {
  return api<DirectoryPage>('/directory/getDirectory', {
    method: 'POST',
    query: { page },
    body: { ...normalizeFilter(filter), ...withFilters(filters) },
    signal,
  });
}

export function fetchSearchPage(
  q: string,
  page: number,
  signal?: AbortSignal,
  filters?: ListFilters,
): Promise<DirectoryPage> {
  return api<DirectoryPage>('/directory/search', {
    method: 'POST',
    query: { page },
    body: { q, ...withFilters(filters) },
    signal,
  });
}

export async function fetchProfile(
  ref: ProfileRef,
  signal?: AbortSignal,
  options: { handle?: number[]; loading?: boolean } = {},
): Promise<Profile> {
  const path = 'id' in ref ? `/getProfile/${ref.id}` : `/getProfileByName/${encodeURIComponent(ref.name)}`;
  const response = await api<z.infer<typeof ProfileResponse>>(path, {
    query: 'id' in ref ? { render: 1 } : undefined,
    signal,
    loading: options.loading ?? true,
    handle: options.handle,
  });
  return response.profile;
}

/** A bookmarked profile, or null when it is no longer listed (a bookmark outlives a hidden ad). */
export async function fetchBookmarkedProfile(id: number, signal?: AbortSignal): Promise<Profile | null> {
  try {
    // track=0: listing a bookmark is not a visit; the view counts when the profile is opened.
    const response = await api<z.infer<typeof ProfileResponse>>(`/getProfile/${id}`, {
      signal,
      handle: [404],
      query: { track: 0 },
    });
    return response.profile;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** A profile as a list item (bookmarks list the full profiles they fetched). */
export function toProfileItem(profile: Profile): ProfileItem {
  // The item stands for the profile's home listing.
  const { on_tour, tour, city, place } = itemLocation(
    { kind: 'home', city: profile.city?.name ?? null, place: profile.place },
    new Date(),
  );
  return {
    id: profile.user_id,
    name: profile.screen_name,
    heading: profile.heading,
    avatar: profile.avatar,
    verified: profile.verified,
    available_now: profile.available_until !== null && Date.parse(profile.available_until) > Date.now(),
    on_tour,
    tour,
    user: { city, place, profile: profile.screen_name },
  };
}

export function fetchNearbyPage(
  lat: number,
  lng: number,
  page: number,
  signal?: AbortSignal,
  filters?: ListFilters,
): Promise<DirectoryPage> {
  return api<z.infer<typeof NearbyPage>>('/directory/nearby', {
    method: 'POST',
    query: { page },
    body: { lat, lng, ...withFilters(filters) },
    signal,
  });
}

/** Spec section 2: a tap on the phone number. Counted quietly; the call goes ahead whatever happens. */
export function revealPhone(id: number): void {
  void api(`/directory/phoneReveal/${id}`, { method: 'POST', handle: QUIET }).catch(() => undefined);
}

/** The report channel (DESIGN.md): the answer is a notification the API client shows. */
export function sendFeedback(data: FeedbackData): Promise<NotificationBody> {
  return api<NotificationBody>('/directory/setFeedback', { method: 'POST', body: { data }, loading: true });
}

export function fetchComments(profileId: number, page: number, signal?: AbortSignal): Promise<CommentsPage> {
  return api<CommentsPage>(`/comments/${profileId}`, { query: { page }, signal, handle: [404] });
}

export function postComment(profileId: number, body: string) {
  return api<z.infer<typeof CommentCreated>>(`/comments/${profileId}`, {
    method: 'POST',
    body: { body },
    loading: true,
  });
}

export function deleteComment(commentId: number) {
  return api<z.infer<typeof CommentDeleted>>(`/comments/delete/${commentId}`, {
    method: 'POST',
    body: {},
    loading: true,
  });
}

/** A city page's coming visitors (issue 27 item 4): tours starting within the next days. */
export function useToursAhead(filter: DirectoryFilter & { place: string }) {
  return useQuery({
    queryKey: directoryKeys.toursAhead(filter),
    queryFn: ({ signal }) =>
      api<ToursAhead>('/directory/getToursAhead', {
        method: 'POST',
        body: { category: filter.category, country: filter.country, place: filter.place },
        signal,
      }),
    staleTime: 60_000,
  });
}

/** Countries with listed profiles of the category, counted as their country pages count. */
export function useCountries(category: Category = 'escorts') {
  return useQuery({
    queryKey: directoryKeys.countries(category),
    queryFn: ({ signal }) => fetchCountries(category, signal),
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

export const listingSource = (filter: DirectoryFilter, filters?: ListFilters): ProfileListSource => ({
  queryKey: directoryKeys.list(filter, filters),
  fetchPage: (page, signal) => fetchDirectoryPage(filter, page, signal, filters),
});

export const searchSource = (q: string, filters?: ListFilters): ProfileListSource => ({
  queryKey: directoryKeys.search(q, filters),
  fetchPage: (page, signal) => fetchSearchPage(q, page, signal, filters),
});

export const nearbySource = (lat: number, lng: number, filters?: ListFilters): ProfileListSource => ({
  queryKey: directoryKeys.nearby(lat, lng, filters),
  fetchPage: (page, signal) => fetchNearbyPage(lat, lng, page, signal, filters),
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

/**
 * Spec section 4: the bookmarks list does not reload while a result exists. Each bookmarked profile
 * is cached for good once fetched; only ids added since are fetched.
 */
export function bookmarkQuery(id: number) {
  return {
    queryKey: directoryKeys.bookmark(id),
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchBookmarkedProfile(id, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30 * 60_000,
  };
}

export function useComments(profileId: number, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: directoryKeys.comments(profileId),
    queryFn: ({ pageParam, signal }) => fetchComments(profileId, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: CommentsPage) => (last.has_more ? last.page + 1 : undefined),
    enabled,
    staleTime: 30_000,
  });
}
