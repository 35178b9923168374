import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function Footer() {
  const { t } = useTranslation();
  return (
    // The build id stays in the HTML for support (data-build), not as text visitors read.
    <footer className="footer" data-build={import.meta.env.VITE_BUILD_ID}>
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
              <Link to="/feed">{t('nav.feed')}</Link>
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
      </div>
    </footer>
  );
}
