import { Navigate, useParams } from 'react-router';
import { SLUG_PATTERN } from '#shared/constants.ts';
import type { RouteMeta } from '#shared/routes.ts';
import { NOT_FOUND_PATH } from '#client/lib/navigation.ts';
import { HANDLE_PARAM } from '#client/lib/route-paths.ts';
import { SECTION_COMPONENTS } from './sections';

/** Spec section 2: country and place accept lowercase letters and hyphens only. */
const SLUG_PARAMS = ['country', 'place'] as const;

export function RouteScreen({ meta }: { meta: RouteMeta }) {
  const params = useParams();
  if (meta.path.startsWith('/@:')) {
    const handle = params[HANDLE_PARAM] ?? '';
    if (!handle.startsWith('@') || handle.length < 2) return <Navigate to={NOT_FOUND_PATH} replace />;
  }
  for (const key of SLUG_PARAMS) {
    const value = params[key];
    if (value !== undefined && !SLUG_PATTERN.test(value)) return <Navigate to={NOT_FOUND_PATH} replace />;
  }
  const lazySection = SECTION_COMPONENTS[meta.section];
  const Section = lazySection.resolved ?? lazySection;
  return <Section route={meta.name} />;
}
