import { useMatches } from 'react-router';
import type { RouteMeta } from '#shared/routes.ts';

export function isRouteMeta(handle: unknown): handle is RouteMeta {
  return (
    !!handle &&
    typeof handle === 'object' &&
    typeof (handle as RouteMeta).name === 'string' &&
    typeof (handle as RouteMeta).section === 'string'
  );
}

/** Meta and params of the deepest matched route (the shell sits above the screens). */
export function useCurrentRoute(): { meta: RouteMeta | null; params: Record<string, string | undefined> } {
  const matches = useMatches();
  const last = matches[matches.length - 1];
  const match = [...matches].reverse().find((m) => isRouteMeta(m.handle));
  return { meta: match && isRouteMeta(match.handle) ? match.handle : null, params: last?.params ?? {} };
}
