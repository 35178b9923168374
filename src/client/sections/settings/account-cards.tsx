// The email, mobile, password and username blocks of the account screen. Each form is checked by
// the shared schema of its call; the server's answer is a notice (the API client shows it).
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '#shared/schemas/auth.ts';
import { ChangeEmailBody, ChangeMobileBody, ChangePasswordBody, ChangeUsernameBody } from '#shared/schemas/account.ts';
import { currentUserKey } from '#client/features/app/api.ts';
import {
  accountKeys,
  changeEmail,
  changeMobile,
  changePassword,
  changeUsername,
  type AccountView,
} from '#client/features/account/api.ts';
import { resendVerification } from '#client/features/auth/api.ts';
import { PasswordField, SubmitButton, TextField, useSchemaForm } from '#client/sections/auth/form.tsx';
import { Current, SettingsCard, StatusBadge } from './settings-card';

function useRefreshAccount(id: number) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: accountKeys.account(id) }),
      queryClient.invalidateQueries({ queryKey: currentUserKey }),
    ]);
  };
}

export function EmailCard({ account, isSelf, asAdmin }: { account: AccountView; isSelf: boolean; asAdmin: boolean }) {
  const { t } = useTranslation('settings');
  const refresh = useRefreshAccount(account.user_id);
  const form = useSchemaForm(
    ChangeEmailBody,
    { email: '', current_password: '' },
    { email: t('email.new'), current_password: t('fields.currentPassword') },
  );
  const onSubmit = form.submit(async (body) => {
    await changeEmail(account.user_id, body);
    form.reset();
    await refresh();
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
          <button type="button" className="link-button" onClick={() => void resendVerification().catch(() => null)}>
            {t('email.resend')}
          </button>
        </p>
      )}
      {account.pending_email && (
        <p className="settings-card__note">{t('email.pending', { email: account.pending_email })}</p>
      )}
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField form={form} name="email" type="email" autoComplete="email" autoCapitalize="off" spellCheck={false} />
        <PasswordField
          form={form}
          name="current_password"
          autoComplete="current-password"
          hint={asAdmin ? t('fields.adminPassword') : undefined}
        />
        <SubmitButton busy={form.submitting}>{t('email.submit')}</SubmitButton>
      </form>
      <p className="field__hint">{t('email.hint')}</p>
    </SettingsCard>
  );
}

export function MobileCard({ account }: { account: AccountView }) {
  const { t } = useTranslation('settings');
  const form = useSchemaForm(ChangeMobileBody, { mobile: '' }, { mobile: t('mobile.new') });
  // The answer's notice leads to /verify/pin/{hash}, where the texted PIN is typed.
  const onSubmit = form.submit(async (body) => {
    await changeMobile(account.user_id, body);
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
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          form={form}
          name="mobile"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder={t('mobile.placeholder')}
          hint={t('mobile.hint')}
        />
        <SubmitButton busy={form.submitting}>{t('mobile.submit')}</SubmitButton>
      </form>
    </SettingsCard>
  );
}

export function PasswordCard({ account, asAdmin }: { account: AccountView; asAdmin: boolean }) {
  const { t } = useTranslation('settings');
  const form = useSchemaForm(
    ChangePasswordBody,
    { current_password: '', password: '' },
    { current_password: t('fields.currentPassword'), password: t('password.new') },
  );
  const onSubmit = form.submit(async (body) => {
    await changePassword(account.user_id, body);
    form.reset();
  });
  return (
    <SettingsCard title={t('password.title')} testId="password-card">
      <p className="settings-card__note">{t('password.lead')}</p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <PasswordField
          form={form}
          name="current_password"
          autoComplete="current-password"
          hint={asAdmin ? t('fields.adminPassword') : undefined}
        />
        <PasswordField
          form={form}
          name="password"
          autoComplete="new-password"
          hint={t('password.hint', { count: PASSWORD_MIN })}
        />
        <SubmitButton busy={form.submitting}>{t('password.submit')}</SubmitButton>
      </form>
    </SettingsCard>
  );
}

export function UsernameCard({ account }: { account: AccountView }) {
  const { t } = useTranslation('settings');
  const refresh = useRefreshAccount(account.user_id);
  const form = useSchemaForm(ChangeUsernameBody, { username: account.username }, { username: t('username.new') });
  const onSubmit = form.submit(async (body) => {
    await changeUsername(account.user_id, body);
    await refresh();
  });
  return (
    <SettingsCard title={t('username.title')} testId="username-card">
      <Current label={t('username.current')}>{account.username}</Current>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          form={form}
          name="username"
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={USERNAME_MAX}
          hint={t('username.hint', { min: USERNAME_MIN, max: USERNAME_MAX })}
        />
        <SubmitButton busy={form.submitting}>{t('username.submit')}</SubmitButton>
      </form>
    </SettingsCard>
  );
}
