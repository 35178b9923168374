import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ForgotPasswordBody } from '#shared/schemas/auth.ts';
import { EmailField, Form, SubmitButton, useSchemaForm } from '#client/components/form/index.ts';
import { useForgotPassword } from './api';
import { AuthCard, AuthStatus } from './auth-layout';
/** /forgot-password. The server answers the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const forgot = useForgotPassword();
  const form = useSchemaForm(ForgotPasswordBody, {
    defaultValues: { email: '' },
    labels: { email: t('fields.email') },
  });

  return (
    <AuthCard title={t('forgot.title')} lead={t('forgot.lead')} testId="forgot-password-page">
      {sentTo && (
        <AuthStatus tone="info">
          <p>{t('forgot.sent', { email: sentTo })}</p>
        </AuthStatus>
      )}
      <Form
        form={form}
        className="form"
        onSubmit={async (body) => {
          await forgot.mutateAsync(body);
          setSentTo(body.email);
        }}
      >
        <EmailField form={form} name="email" />
        <SubmitButton form={form}>{sentTo ? t('forgot.again') : t('forgot.submit')}</SubmitButton>
        <p className="form__alt">
          <Link to="/login">{t('forgot.back')}</Link>
        </p>
      </Form>
    </AuthCard>
  );
}
