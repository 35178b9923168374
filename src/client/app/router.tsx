// The routes of spec section 2 in React Router's declarative mode (docs/decisions/0710): the app loads
// its data through TanStack Query, not route loaders, so the data router's code stays out of the first
// route. The table is built once; <AppRoutes> renders the match inside <BrowserRouter>.
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate, useParams, useRoutes, type RouteObject } from 'react-router';
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
        ...ROUTES.map((meta) => ({ path: routerPath(meta.path), element: <RouteScreen meta={meta} /> })),
        ...Object.entries(LEGACY_PREFIXES).map(([from, to]) => ({
          path: `${from}*`,
          element: <LegacyRedirect to={to} />,
        })),
        { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
      ],
    },
  ];
}

const routes = buildRoutes();

export function AppRoutes() {
  // Code outside React (the API client, dialogs) navigates inside the SPA through this.
  const navigate = useNavigate();
  useEffect(() => registerNavigator((to, options) => void navigate(to, options)), [navigate]);
  return useRoutes(routes);
}
