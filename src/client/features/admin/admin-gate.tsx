// The panel shows only to admins: a visitor gets the login modal, an advertiser a plain refusal (the
// server answers 401 / 403 to every admin call anyway; this only avoids a screen of errors).
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { openLoginModal } from '#client/lib/dialogs.ts';

export function AdminGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation('admin');
  const { data: user, isPending } = useCurrentUser();
  const visitor = !isPending && !user;
  useEffect(() => {
    if (visitor) openLoginModal();
  }, [visitor]);
  if (isPending) return <InlineSpinner label={t('loading')} />;
  if (!user || user.role !== 'admin')
    return (
      <div className="container section">
        <h1>{t('gate.title')}</h1>
        <p className="lead">{t(user ? 'gate.advertiser' : 'gate.visitor')}</p>
      </div>
    );
  return <>{children}</>;
}
