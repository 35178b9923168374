import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import type { CurrentUser } from '#client/features/app/api';
import { roleOf } from '#client/features/app/api';
import { useLogout } from '#client/features/auth/api';
import { navEntries, type NavEntry } from './nav-entries';

const GROUPS: Array<NavEntry['group']> = ['browse', 'account', 'info'];

export function NavMenu({ user, country }: { user: CurrentUser | null; country: string | null }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const entries = navEntries(roleOf(user), user, country);
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      {GROUPS.map((group) => (
        <ul key={group} className={`nav__group nav__group--${group}`}>
          {entries
            .filter((entry) => entry.group === group)
            .map((entry) => (
              <li key={entry.key}>
                {entry.to ? (
                  <NavLink to={entry.to} className={`nav__link nav__link--${entry.key}`} end={entry.key !== 'worldwide'}>
                    {t(entry.label)}
                  </NavLink>
                ) : (
                  <button type="button" className={`nav__link nav__link--${entry.key}`} onClick={() => void logout()}>
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
