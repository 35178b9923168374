import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { NARROW_BREAKPOINT } from '#shared/constants.ts';
import type { RouteMeta } from '#shared/routes.ts';
import type { CurrentUser } from '#client/lib/app-data.ts';
import { onResizeSettled } from '#client/lib/window-resize.ts';
import { LanguageSwitcher } from '#client/components/language-switcher.tsx';
import { NavMenu } from './nav-menu';
import { SearchBox } from '#client/components/search-box.tsx';

const isNarrow = () => window.matchMedia(`(max-width: ${NARROW_BREAKPOINT}px)`).matches;

/**
 * Screens where a visitor looks for someone: the search box stays in the bar there, not behind the menu
 * on a phone (issue 23, item 11); on the search page it holds the query to refine.
 */
const DIRECTORY_SCREEN = /^\/($|countries\/?$|search\/?$|bookmarks\/?$|(escorts|female|male|trans|dom)(\/|$))/;
export const searchInBar = (pathname: string) => DIRECTORY_SCREEN.test(pathname);

export function TopBar({
  width,
  user,
  country,
  adminSearch,
}: {
  width: RouteMeta['nav'];
  user: CurrentUser | null;
  country: string | null;
  /** An admin's search box (spec section 2), loaded for admins only (signed-in-parts.ts). */
  adminSearch?: ReactNode;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const inBar = searchInBar(location.pathname);

  const toggle = useRef<HTMLButtonElement>(null);

  // A followed link closes the collapsed menu on narrow screens.
  useEffect(() => setOpen(false), [location.pathname]);

  // A menu opened on a phone closes once the window settles wider than the narrow breakpoint (a rotation
  // to landscape, a wider window): there its parts join the bar, and its toggle, Escape's focus target,
  // is hidden; turning back would otherwise find the menu still open over the page.
  useEffect(() => {
    if (!open) return;
    return onResizeSettled(() => {
      if (!isNarrow()) setOpen(false);
    });
  }, [open]);

  // Escape closes the open menu as it closes a modal (spec section 1), the focus back on its button.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="topbar">
      <div className={`topbar__inner topbar__inner--${width}`}>
        <Link to="/" className="brand">
          <span className="brand__mark" aria-hidden="true">
            ◆
          </span>
          {t('siteName')}
        </Link>
        <button
          ref={toggle}
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="main-menu"
          onClick={() => setOpen((value) => !value)}
        >
          <span className={`menu-toggle__icon${open ? ' menu-toggle__icon--open' : ''}`} aria-hidden="true" />
          {/* One label in both states (aria-expanded tells which), so the bar never re-wraps. */}
          {t('nav.open')}
        </button>
        {inBar && <SearchBox className="search--bar" onSearched={() => setOpen(false)} />}
        <div id="main-menu" className={`menu${open ? ' menu--open' : ''}`}>
          {!inBar && (
            <SearchBox
              onSearched={() => {
                // Spec: on narrow screens the collapsible menu is toggled after searching.
                if (isNarrow()) setOpen((value) => !value);
              }}
            />
          )}
          {/* Spec section 2: admins also get the admin search box (no minimum length). */}
          {adminSearch}
          <LanguageSwitcher user={user} />
          <NavMenu user={user} country={country} />
        </div>
      </div>
    </header>
  );
}
