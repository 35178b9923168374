import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { RecoverBody, ResetPasswordBody } from '#shared/schemas/auth.ts';
import { Form, SubmitButton, useSchemaForm } from '#client/components/form/index.ts';
import { authKeys, checkRecoverLink, useResetPassword } from './api';
import { intlLocale } from '#client/lib/format.ts';
import { NewPasswordField } from './account-fields';
import { AuthCard, AuthStatus } from './auth-layout';
/**
 * /recover/{id}/{hash}, the link of the forgot-password mail. The link is checked first
 * (POST /recover), so an expired one says so before the user types a new password.
 */
export function RecoverPage() {
  const { t, i18n } = useTranslation('auth');
  const { id = '', hash = '' } = useParams();
  const wellFormed = RecoverBody.safeParse({ id, hash }).success;
  const link = useQuery({
    queryKey: authKeys.recover(id, hash),
    queryFn: () => checkRecoverLink(id, hash),
    enabled: wellFormed,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [done, setDone] = useState(false);
  const reset = useResetPassword();
  const form = useSchemaForm(ResetPasswordBody, {
    defaultValues: { id, hash, password: '' },
    labels: { id: 'id', hash: 'hash', password: t('fields.newPassword') },
  });

  let body;
  if (!wellFormed || link.isError) {
    body = (
      <>
        <AuthStatus tone="error">
          <p>{t('recover.invalid')}</p>
        </AuthStatus>
        <p className="form__alt">
          <Link className="button button--primary" to="/forgot-password">
            {t('recover.requestNew')}
          </Link>
        </p>
      </>
    );
  } else if (link.isPending) {
    body = (
      <AuthStatus tone="pending">
        <p>{t('recover.checking')}</p>
      </AuthStatus>
    );
  } else if (done) {
    body = (
      <>
        <AuthStatus tone="success">
          <p>{t('recover.done')}</p>
        </AuthStatus>
        <p className="form__alt">
          <Link className="button button--primary" to="/login">
            {t('recover.login')}
          </Link>
        </p>
      </>
    );
  } else {
    const expires = new Date(link.data.data.expires_at);
    body = (
      <Form
        form={form}
        className="form"
        data-testid="recover-form"
        onSubmit={async (body) => {
          // The answer is a notice that leads to /login.
          await reset.mutateAsync(body);
          setDone(true);
        }}
      >
        <NewPasswordField form={form} name="password" hint={(rule) => t('register.passwordHint', rule)} />
        <p className="field__hint">
          {t('recover.expires', {
            time: new Intl.DateTimeFormat(intlLocale(i18n.language), { hour: '2-digit', minute: '2-digit' }).format(
              expires,
            ),
          })}
        </p>
        <SubmitButton form={form}>{t('recover.submit')}</SubmitButton>
      </Form>
    );
  }

  return (
    <AuthCard
      title={t('recover.title')}
      lead={!done && wellFormed && link.isSuccess ? t('recover.lead') : undefined}
      testId="recover-page"
    >
      {body}
    </AuthCard>
  );
}
