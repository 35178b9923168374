import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppConfig } from '#client/lib/app-data.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  const { data: config } = useAppConfig();
  const fallback = config?.fallback_landing_url;
  // Spec section 1: a page-not-found event leads to the fallback landing page when one is configured.
  useEffect(() => {
    if (fallback) window.location.replace(fallback);
  }, [fallback]);
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
