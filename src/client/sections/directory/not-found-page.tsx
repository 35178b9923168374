import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="container container--narrow not-found" data-testid="not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>{t('notFound.heading')}</h1>
      <p className="lead">{t('notFound.message')}</p>
      <p className="actions">
        <Link className="button button--primary" to="/">
          {t('notFound.home')}
        </Link>
        <Link className="button" to="/countries">
          {t('notFound.countries')}
        </Link>
      </p>
    </section>
  );
}
