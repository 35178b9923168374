// The three media screens link to each other and back to the edit page.
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';

export function MediaNav({ id }: { id: number }) {
  const { t } = useTranslation('media');
  const tabs = [
    { to: `/edit/media/${id}`, label: t('nav.media') },
    { to: `/edit/gallery/${id}`, label: t('nav.gallery') },
    { to: `/edit/verify/${id}`, label: t('nav.verify') },
  ];
  return (
    <nav className="media-nav" aria-label={t('nav.label')}>
      <Link className="media-nav__back small" to={`/edit/${id}`}>
        ‹ {t('nav.back')}
      </Link>
      <ul className="media-nav__tabs">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink className="media-nav__tab" to={tab.to} end>
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
