import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { CurrentUser } from '#client/lib/app-data.ts';
import { roleOf } from '#client/lib/app-data.ts';
import { navEntries, type NavEntry } from '#client/components/nav-entries.ts';

const GROUPS: Array<NavEntry['group']> = ['browse', 'account', 'info'];

/**
 * Spec section 4: logging out answers the URL the browser goes to next; a full load then drops every
 * piece of the signed-in state at once. The auth calls load on the click, not with a visitor's page (0712).
 */
function logOut(): void {
  void import('#client/features/auth/api.ts')
    .then(({ logout }) => logout())
    .then(
      (target) => window.location.assign(target),
      // A failed call already said so (the API client's dialogs); the user stays signed in.
      () => undefined,
    );
}

export function NavMenu({ user, country }: { user: CurrentUser | null; country: string | null }) {
  const { t } = useTranslation();
  const location = useLocation();
  const entries = navEntries(roleOf(user), user, country);
  // Exact match on path and query: "/countries?category=male" must not light up "Worldwide".
  const here = `${location.pathname}${location.search}`;
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      {GROUPS.map((group) => (
        <ul key={group} className={`nav__group nav__group--${group}`}>
          {entries
            .filter((entry) => entry.group === group)
            .map((entry) => (
              <li key={entry.key}>
                {entry.to ? (
                  <Link
                    to={entry.to}
                    className={`nav__link nav__link--${entry.key}${entry.to === here ? ' active' : ''}`}
                    aria-current={entry.to === here ? 'page' : undefined}
                  >
                    {t(entry.label)}
                  </Link>
                ) : (
                  <button type="button" className={`nav__link nav__link--${entry.key}`} onClick={logOut}>
                    {t(entry.label)}
                  </button>
                )}
              </li>
            ))}
        </ul>
      ))}
    </nav>
  );
}
