import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { HomeView } from '#shared/views/directory-view.tsx';
import type { Translate } from '#shared/views/profile-view.tsx';
import { routerLink } from '#client/components/router-link.tsx';
import { useCountries } from './api';

/** The home page the server also renders (shared/views/directory-view). */
export function HomePage() {
  const { t, i18n } = useTranslation('directory');
  const translate = useCallback<Translate>((key, options) => t(key, options ?? {}), [t]);
  const countries = useCountries();
  return (
    <HomeView
      countries={countries.isPending ? null : (countries.data ?? [])}
      t={translate}
      lang={i18n.language}
      renderLink={routerLink}
    />
  );
}
