// Opened by a 401 (spec section 4). A placeholder body for now: the accounts work replaces it
// with the real login form; keep the export name and the store it reads.
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { closeLoginModal, useDialogs } from '#client/lib/dialogs';
import { DialogDescription, DialogFrame } from './dialogs/dialog-frame';

export function LoginModal() {
  const { t } = useTranslation();
  const { login } = useDialogs();
  const location = useLocation();
  const next = encodeURIComponent(`${location.pathname}${location.search}`);
  return (
    <DialogFrame
      open={login}
      onClose={closeLoginModal}
      title={t('login.title')}
      layer="modal"
      described
      testId="login-modal"
    >
      <DialogDescription className="dialog__message">{t('login.message')}</DialogDescription>
      <div className="dialog__actions">
        <Link className="button" to="/register" onClick={closeLoginModal}>
          {t('login.register')}
        </Link>
        <Link className="button button--primary" to={`/login?next=${next}`} onClick={closeLoginModal}>
          {t('login.login')}
        </Link>
      </div>
    </DialogFrame>
  );
}
