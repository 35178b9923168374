import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '#shared/routes.ts';

/** Placeholder for routes whose screens are not built yet: titled like the route, translated. */
export function ComingSoon({ route }: { route: string }) {
  const { t } = useTranslation();
  const meta = ROUTES.find((r) => r.name === route);
  return (
    <section className="container container--narrow coming-soon" data-route={route}>
      <h1>{meta ? t(`titles:${meta.title}`) : t('siteName')}</h1>
      <p className="lead">{t('comingSoon.message')}</p>
      <p>
        <Link className="button" to="/">
          {t('comingSoon.home')}
        </Link>
      </p>
    </section>
  );
}
