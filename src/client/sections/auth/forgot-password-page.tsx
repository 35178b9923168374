import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ForgotPasswordBody } from '#shared/schemas/auth.ts';
import { forgotPassword } from '#client/features/auth/api.ts';
import { AuthCard, AuthStatus } from './auth-layout';
import { SubmitButton, TextField, useSchemaForm } from './form';

/** /forgot-password. The server answers the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useSchemaForm(ForgotPasswordBody, { email: '' }, { email: t('fields.email') });

  const onSubmit = form.submit(async (body) => {
    await forgotPassword(body);
    setSentTo(body.email);
  });

  return (
    <AuthCard title={t('forgot.title')} lead={t('forgot.lead')} testId="forgot-password-page">
      {sentTo && (
        <AuthStatus tone="info">
          <p>{t('forgot.sent', { email: sentTo })}</p>
        </AuthStatus>
      )}
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField form={form} name="email" type="email" autoComplete="email" autoCapitalize="off" spellCheck={false} />
        <SubmitButton busy={form.submitting}>{sentTo ? t('forgot.again') : t('forgot.submit')}</SubmitButton>
        <p className="form__alt">
          <Link to="/login">{t('forgot.back')}</Link>
        </p>
      </form>
    </AuthCard>
  );
}
