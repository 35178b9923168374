import { useMemo } from 'react';
import { matchRoutes, useLocation } from 'react-router';
import { LEGACY_PREFIXES, ROUTES, type RouteMeta } from '#shared/routes.ts';
import { routerPath } from '#client/lib/route-paths.ts';

/** The router's table (router.tsx) as data: the moved prefixes and the catch-all have no meta. */
const TABLE: Array<{ path: string; meta: RouteMeta | null }> = [
  ...ROUTES.map((meta) => ({ path: routerPath(meta.path), meta })),
  ...Object.keys(LEGACY_PREFIXES).map((from) => ({ path: `${from}*`, meta: null })),
  { path: '*', meta: null },
];

/** Meta and params of the route the address matches (the shell sits above the screens). */
export function useCurrentRoute(): { meta: RouteMeta | null; params: Record<string, string | undefined> } {
  const { pathname } = useLocation();
  return useMemo(() => {
    const last = matchRoutes(TABLE, pathname)?.at(-1);
    return { meta: last?.route.meta ?? null, params: last?.params ?? {} };
  }, [pathname]);
}
