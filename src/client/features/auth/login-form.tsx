// The sign-in form of /login, /new-login and the login modal (spec section 4: a 401 opens it).
// Login is the email address or the username.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoginBody } from '#shared/schemas/auth.ts';
import { Form, PasswordField, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { useLogin, type SessionResponse } from './api';

export interface LoginFormProps {
  /** Runs after the session started and the queries were asked again. */
  onSignedIn: (session: SessionResponse) => void;
  /** A link was followed (the modal closes). */
  onLeave?: () => void;
  autoFocus?: boolean;
}

export function LoginForm({ onSignedIn, onLeave, autoFocus }: LoginFormProps) {
  const { t } = useTranslation('auth');
  const login = useLogin();
  const form = useSchemaForm(LoginBody, {
    defaultValues: { login: '', password: '' },
    labels: { login: t('fields.login'), password: t('fields.password') },
  });

  return (
    <Form
      form={form}
      className="form"
      data-testid="login-form"
      onSubmit={async (body) => onSignedIn(await login.mutateAsync(body))}
    >
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
      <SubmitButton form={form}>{t('login.submit')}</SubmitButton>
      <p className="form__alt">
        {t('login.noAccount')}{' '}
        <Link to="/register" onClick={onLeave}>
          {t('login.register')}
        </Link>
      </p>
    </Form>
  );
}
