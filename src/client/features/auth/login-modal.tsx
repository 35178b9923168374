// Opened by any 401 (spec section 4). Its body is the sign-in form of the auth section, loaded the
// first time the modal opens, so visitors who never meet a 401 do not download it. After signing
// in the modal closes and every query on screen asks again (features/auth useSessionStarted).
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyWithRetry } from '#client/lib/lazy-with-retry.ts';
import { closeLoginModal, useDialogs } from '#client/lib/dialogs.ts';
import { i18n, initI18n } from '#client/lib/i18n.ts';
import { DialogDescription, DialogFrame } from '#client/components/dialogs/dialog-frame.tsx';
import { SectionErrorBoundary } from '#client/components/section-error-boundary.tsx';
import { InlineSpinner } from '#client/components/spinner.tsx';

const LoginForm = lazyWithRetry('login-form', async () => {
  const [module] = await Promise.all([import('./login-form'), initI18n().then(() => i18n.loadNamespaces('auth'))]);
  return module.LoginForm;
});

export function LoginModal() {
  const { t } = useTranslation();
  const { login } = useDialogs();
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
      <SectionErrorBoundary resetKey={String(login)}>
        <Suspense fallback={<InlineSpinner label={t('loading')} />}>
          <LoginForm onSignedIn={closeLoginModal} onLeave={closeLoginModal} autoFocus />
        </Suspense>
      </SectionErrorBoundary>
    </DialogFrame>
  );
}
