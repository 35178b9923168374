import { createBrowserRouter, Navigate, useLocation, useParams, type RouteObject } from 'react-router';
import { LEGACY_PREFIXES, ROUTES } from '#shared/routes.ts';
import { NOT_FOUND_PATH, registerNavigator } from '#client/lib/navigation.ts';
import { routerPath } from '#client/lib/route-paths.ts';
import { RouteScreen } from './route-screen';
import { Shell } from './shell';

/** /all/... moved to /escorts/... (spec section 2); the rest of the path and the query stay. */
function LegacyRedirect({ to }: { to: string }) {
  const params = useParams();
  const location = useLocation();
  return <Navigate to={`${to}${params['*'] ?? ''}${location.search}`} replace />;
}

export function buildRoutes(): RouteObject[] {
  return [
    {
      element: <Shell />,
      children: [
        ...ROUTES.map((meta) => ({ path: routerPath(meta.path), element: <RouteScreen meta={meta} />, handle: meta })),
        ...Object.entries(LEGACY_PREFIXES).map(([from, to]) => ({
          path: `${from}*`,
          element: <LegacyRedirect to={to} />,
        })),
        { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
      ],
    },
  ];
}

export function createAppRouter() {
  const router = createBrowserRouter(buildRoutes());
  registerNavigator((to, options) => void router.navigate(to, options));
  return router;
}
