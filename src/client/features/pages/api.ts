// Calls of /feed and /help.
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import type { NotificationBody } from '#shared/api/errors.ts';
import type { FeedKind, FeedPage } from '#shared/schemas/feed.ts';
import type { HelpContactBody } from '#shared/schemas/help.ts';
import { api } from '#client/lib/api.ts';

export const feedKeys = { kind: (kind: FeedKind) => ['feed', kind] as const };

export function fetchFeed(kind: FeedKind, page: number, signal?: AbortSignal): Promise<FeedPage> {
  return api<FeedPage>(`/directory/feed/${kind}`, { query: { page }, signal });
}

export function useFeed(kind: FeedKind) {
  return useInfiniteQuery({
    queryKey: feedKeys.kind(kind),
    queryFn: ({ pageParam, signal }) => fetchFeed(kind, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: FeedPage) => (last.has_more ? last.page + 1 : undefined),
    staleTime: 60_000,
  });
}

/** The answer is a notification (shown by the API client); nothing cached changes. */
export function useSendHelp() {
  return useMutation({
    mutationFn: (body: HelpContactBody) =>
      api<NotificationBody>('/help/contact', { method: 'POST', body, loading: true }),
  });
}
