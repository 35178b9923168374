import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="footer">
      <div className="footer__inner">
        <p className="footer__statement">
          <strong className="badge badge--adult">18+</strong> {t('statement')}
        </p>
        <nav aria-label={t('footer.links')}>
          <ul className="footer__links">
            <li>
              <Link to="/countries">{t('nav.worldwide')}</Link>
            </li>
            <li>
              <Link to="/what-you-get">{t('nav.whatYouGet')}</Link>
            </li>
            <li>
              <Link to="/shop">{t('nav.shop')}</Link>
            </li>
            <li>
              <Link to="/help">{t('nav.help')}</Link>
            </li>
          </ul>
        </nav>
        <p className="footer__build">v {import.meta.env.VITE_BUILD_ID}</p>
      </div>
    </footer>
  );
}
