import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { safeNextPath } from './api';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { AuthCard } from './auth-layout';
import { LoginForm } from './login-form';

/** /login and /new-login. `?next=` is where to go afterwards, unless the profile must be completed first. */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { data: user } = useCurrentUser();
  const next = safeNextPath(search.get('next'));

  return (
    <AuthCard title={t('login.title')} lead={t('login.lead')} testId="login-page">
      {user && <p className="auth__note">{t('login.signedInAs', { username: user.username })}</p>}
      <LoginForm
        onSignedIn={(session) => navigate(session.path !== '/' ? session.path : (next ?? '/'), { replace: true })}
      />
    </AuthCard>
  );
}
