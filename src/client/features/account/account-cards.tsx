// The email, mobile, password and username blocks of the account screen. Each form is checked by
// the shared schema of its call; the server's answer is a notice (the API client shows it).
import { useTranslation } from 'react-i18next';
import { ChangeEmailBody, ChangeMobileBody, ChangePasswordBody, ChangeUsernameBody } from '#shared/schemas/account.ts';
import { EmailField, Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { useChangeEmail, useChangeMobile, useChangePassword, useChangeUsername, type AccountView } from './api';
import { NewPasswordField, UsernameField, useResendVerification } from '#client/features/auth/index.ts';
import { CurrentPasswordField } from './current-password-field';
import { Current, SettingsCard, StatusBadge } from './settings-card';

/** A form that carries a password is emptied once its change went through: no secret stays on screen. */
function sendThenEmpty<Body>(form: { reset: () => void }, send: (body: Body) => Promise<unknown>) {
  return async (body: Body) => {
    await send(body);
    form.reset();
  };
}

export function EmailCard({ account, isSelf, asAdmin }: { account: AccountView; isSelf: boolean; asAdmin: boolean }) {
  const { t } = useTranslation('settings');
  const change = useChangeEmail(account.user_id);
  const resend = useResendVerification();
  const form = useSchemaForm(ChangeEmailBody, {
    defaultValues: { email: '', current_password: '' },
    labels: { email: t('email.new'), current_password: t('fields.currentPassword') },
  });
  return (
    <SettingsCard
      title={t('email.title')}
      testId="email-card"
      badge={
        <StatusBadge ok={account.email_verified}>
          {account.email_verified ? t('status.confirmed') : t('status.unconfirmed')}
        </StatusBadge>
      }
    >
      <Current label={t('email.current')}>{account.email}</Current>
      {!account.email_verified && isSelf && (
        <p className="settings-card__note">
          {t('email.unconfirmed')}{' '}
          <button type="button" className="link-button" onClick={() => resend.mutate()}>
            {t('email.resend')}
          </button>
        </p>
      )}
      {account.pending_email && (
        <p className="settings-card__note">{t('email.pending', { email: account.pending_email })}</p>
      )}
      <Form form={form} className="form" onSubmit={sendThenEmpty(form, change.mutateAsync)}>
        <EmailField form={form} name="email" />
        <CurrentPasswordField form={form} name="current_password" asAdmin={asAdmin} />
        <SubmitButton form={form}>{t('email.submit')}</SubmitButton>
      </Form>
      <p className="field__hint">{t('email.hint')}</p>
    </SettingsCard>
  );
}

export function MobileCard({ account }: { account: AccountView }) {
  const { t } = useTranslation('settings');
  const change = useChangeMobile(account.user_id);
  const form = useSchemaForm(ChangeMobileBody, {
    defaultValues: { mobile: '' },
    labels: { mobile: t('mobile.new') },
  });
  return (
    <SettingsCard
      title={t('mobile.title')}
      testId="mobile-card"
      badge={
        account.mobile ? (
          <StatusBadge ok={account.mobile_verified}>
            {account.mobile_verified ? t('status.confirmed') : t('status.unconfirmed')}
          </StatusBadge>
        ) : undefined
      }
    >
      <Current label={t('mobile.current')}>{account.mobile ?? t('mobile.none')}</Current>
      {account.pending_mobile && (
        <p className="settings-card__note">{t('mobile.pending', { mobile: account.pending_mobile })}</p>
      )}
      {/* The answer's notice leads to /verify/pin/{hash}, where the texted PIN is typed. */}
      <Form form={form} className="form" onSubmit={(body) => change.mutateAsync(body)}>
        <TextField
          form={form}
          name="mobile"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder={t('mobile.placeholder')}
          hint={t('mobile.hint')}
        />
        <SubmitButton form={form}>{t('mobile.submit')}</SubmitButton>
      </Form>
    </SettingsCard>
  );
}

export function PasswordCard({ account, asAdmin }: { account: AccountView; asAdmin: boolean }) {
  const { t } = useTranslation('settings');
  const change = useChangePassword(account.user_id);
  const form = useSchemaForm(ChangePasswordBody, {
    defaultValues: { current_password: '', password: '' },
    labels: { current_password: t('fields.currentPassword'), password: t('password.new') },
  });
  return (
    <SettingsCard title={t('password.title')} testId="password-card">
      <p className="settings-card__note">{t('password.lead')}</p>
      <Form form={form} className="form" onSubmit={sendThenEmpty(form, change.mutateAsync)}>
        <CurrentPasswordField form={form} name="current_password" asAdmin={asAdmin} />
        <NewPasswordField form={form} name="password" hint={(rule) => t('password.hint', rule)} />
        <SubmitButton form={form}>{t('password.submit')}</SubmitButton>
      </Form>
    </SettingsCard>
  );
}

export function UsernameCard({ account }: { account: AccountView }) {
  const { t } = useTranslation('settings');
  const change = useChangeUsername(account.user_id);
  const form = useSchemaForm(ChangeUsernameBody, {
    defaultValues: { username: account.username },
    labels: { username: t('username.new') },
  });
  return (
    <SettingsCard title={t('username.title')} testId="username-card">
      <Current label={t('username.current')}>{account.username}</Current>
      <Form form={form} className="form" onSubmit={(body) => change.mutateAsync(body)}>
        <UsernameField form={form} name="username" hint={(lengths) => t('username.hint', lengths)} />
        <SubmitButton form={form}>{t('username.submit')}</SubmitButton>
      </Form>
    </SettingsCard>
  );
}
