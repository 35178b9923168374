// The answers a server-rendered page hands to the SPA (docs/decisions/0705): the query cache entries the
// first screen would otherwise fetch, under the SPA's own query keys, in
// <script type="application/json" id="ssr-state">. The SPA seeds its cache with them before its first
// render, so that render is the screen already on display, and no call repeats what the page carries.

export const SSR_STATE_ID = 'ssr-state';

export interface SsrQuery {
  key: readonly unknown[];
  data: unknown;
  /** Refetch at once (the profile: opening it counts a view, which the server's render did not). */
  stale?: boolean;
}

/** Query keys shared by the SPA (features/directory/api) and the server's first HTML. */
export const ssrKeys = {
  countries: (category: string) => ['directory', 'countries', category] as const,
  navigation: (filter: { category: string; country: string; place?: string }) =>
    [
      'directory',
      'navigation',
      filter.place ? filter : { category: filter.category, country: filter.country },
    ] as const,
  /** `filters`: the normalised filter's key (#shared/rules/list-filters filterKey), '' for none. */
  list: (filter: { category: string; country: string; place?: string }, filters = '') =>
    [
      'directory',
      'list',
      filter.place ? filter : { category: filter.category, country: filter.country },
      ...(filters ? [filters] : []),
    ] as const,
  search: (q: string, filters = '') => ['directory', 'search', q, ...(filters ? [filters] : [])] as const,
  profile: (ref: { id: number } | { name: string }) => ['directory', 'profile', ref] as const,
};
