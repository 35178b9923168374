// A signed-in user whose email address is not confirmed yet sees this under the top bar, with a
// button that mails a new link. Its texts are in the common namespace: it renders in the shell,
// which must not wait for a section's catalogue.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '#client/lib/app-data.ts';
import { ApiError } from '#client/lib/api.ts';
import { resendVerification } from './api';
import './email-banner.css';

export function EmailBanner({ user, hidden }: { user: CurrentUser | null | undefined; hidden?: boolean }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  if (!user || user.email_verified || hidden) return null;

  const resend = async () => {
    setBusy(true);
    try {
      // The answer is a notice ("We sent a new link to ...").
      await resendVerification();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="email-banner" role="region" aria-label={t('emailBanner.label')} data-testid="email-banner">
      <p className="email-banner__text">
        <span className="email-banner__icon" aria-hidden="true">
          ✉
        </span>
        {t('emailBanner.message')}
      </p>
      <button type="button" className="email-banner__button" onClick={() => void resend()} disabled={busy}>
        {t('emailBanner.resend')}
      </button>
    </div>
  );
}
