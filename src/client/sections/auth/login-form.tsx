// The sign-in form of /login, /new-login and the login modal (spec section 4: a 401 opens it).
// Login is the email address or the username.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoginBody } from '#shared/schemas/auth.ts';
import { login, useSessionStarted, type SessionResponse } from '#client/features/auth/api.ts';
import { PasswordField, SubmitButton, TextField, useSchemaForm } from './form';

export interface LoginFormProps {
  /** Runs after the session started and the queries were asked again. */
  onSignedIn: (session: SessionResponse) => void;
  /** A link was followed (the modal closes). */
  onLeave?: () => void;
  autoFocus?: boolean;
}

export function LoginForm({ onSignedIn, onLeave, autoFocus }: LoginFormProps) {
  const { t } = useTranslation('auth');
  const started = useSessionStarted();
  const form = useSchemaForm(
    LoginBody,
    { login: '', password: '' },
    { login: t('fields.login'), password: t('fields.password') },
  );

  const onSubmit = form.submit(async (body) => {
    const session = await login(body);
    await started(session.data);
    onSignedIn(session);
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate data-testid="login-form">
      <TextField
        form={form}
        name="login"
        autoComplete="username"
        autoCapitalize="off"
        spellCheck={false}
        enterKeyHint="next"
        autoFocus={autoFocus}
      />
      <PasswordField form={form} name="password" autoComplete="current-password" enterKeyHint="go" />
      <p className="form__aside">
        <Link to="/forgot-password" onClick={onLeave}>
          {t('login.forgot')}
        </Link>
      </p>
      <SubmitButton busy={form.submitting}>{t('login.submit')}</SubmitButton>
      <p className="form__alt">
        {t('login.noAccount')}{' '}
        <Link to="/register" onClick={onLeave}>
          {t('login.register')}
        </Link>
      </p>
    </form>
  );
}
