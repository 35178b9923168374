// One lazy chunk per section of spec section 1. Each section module exports a component that
// renders the screen of a route by its name; the bundler names the chunk after the section.
// A section's i18n namespaces load together with its code, not one after the other.
import type { ComponentType } from 'react';
import { matchRoutes } from 'react-router';
import { ROUTES, type Section } from '#shared/routes.ts';
import { i18n, initI18n, preloadCatalogues } from '#client/lib/i18n.ts';
import { lazyWithRetry, type PreloadableLazy } from '#client/lib/lazy-with-retry.ts';
import { routerPath, type SectionProps } from '#client/lib/route-paths.ts';

function section<P extends object>(
  name: Section,
  namespaces: string[],
  load: () => Promise<ComponentType<P>>,
): PreloadableLazy<P> {
  return lazyWithRetry(name, async () => {
    // The catalogues download beside the code and the common texts, not after them (0712).
    preloadCatalogues(namespaces);
    const [component] = await Promise.all([load(), initI18n().then(() => i18n.loadNamespaces(namespaces))]);
    return component;
  });
}

export const SECTION_COMPONENTS: Record<Section, PreloadableLazy<SectionProps>> = {
  directory: section('directory', ['directory'], () =>
    import('#client/sections/directory/index.tsx').then((m) => m.DirectorySection),
  ),
  edit: section('edit', ['edit', 'media', 'directory'], () =>
    import('#client/sections/edit/index.tsx').then((m) => m.EditSection),
  ),
  auth: section('auth', ['auth'], () => import('#client/sections/auth/index.tsx').then((m) => m.AuthSection)),
  checkout: section('checkout', ['money'], () =>
    import('#client/sections/checkout/index.tsx').then((m) => m.CheckoutSection),
  ),
  settings: section('settings', ['settings', 'auth'], () =>
    import('#client/sections/settings/index.tsx').then((m) => m.SettingsSection),
  ),
  admin: section('admin', ['admin', 'money'], () =>
    import('#client/sections/admin/index.tsx').then((m) => m.AdminSection),
  ),
};

/** Starts downloading the section of the first screen while i18n starts up; resolves when it is there. */
export function preloadSectionFor(pathname: string): Promise<unknown> {
  const matches = matchRoutes(
    ROUTES.map((meta) => ({ path: routerPath(meta.path), meta })),
    pathname,
  );
  const meta = matches?.[matches.length - 1]?.route.meta;
  // A failure is the lazy component's to report (its error boundary), not the start-up's.
  return meta ? SECTION_COMPONENTS[meta.section].preload().catch(() => undefined) : Promise.resolve();
}
