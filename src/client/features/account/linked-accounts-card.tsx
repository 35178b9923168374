// Linked accounts (spec section 6: an account can connect to or switch to another account).
// Connecting proves the other account with its login and password; switching needs no password.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConnectBody } from '#shared/schemas/auth.ts';
import { Form, PasswordField, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import {
  useConnectAccount,
  useLinkedAccounts,
  useSwitchAccount,
  useUnlinkAccount,
  type LinkedAccount,
} from '#client/features/auth/index.ts';
import { confirm } from '#client/lib/dialogs.ts';
import { SettingsCard } from './settings-card';

const nameOf = (account: LinkedAccount) => account.screen_name || account.username;

export function LinkedAccountsCard() {
  const { t } = useTranslation('settings');
  const links = useLinkedAccounts();
  const connect = useConnectAccount();
  const switchTo = useSwitchAccount();
  const unlink = useUnlinkAccount();
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const busy = confirming || switchTo.isPending || unlink.isPending;
  const form = useSchemaForm(ConnectBody, {
    defaultValues: { login: '', password: '' },
    labels: { login: t('links.login'), password: t('links.password') },
  });

  const onConnect = async (body: ConnectBody) => {
    const before = new Set((links.data ?? []).map((a) => a.user_id));
    const answer = await connect.mutateAsync(body);
    form.reset();
    // The login may have been an email address: name the account that is new in the list.
    const added = answer.data.find((a) => !before.has(a.user_id));
    setStatus(t('links.connected', { name: added ? nameOf(added) : body.login }));
  };

  const onSwitch = (account: LinkedAccount) => {
    if (!busy) switchTo.mutate(account.user_id);
  };

  const onUnlink = async (account: LinkedAccount) => {
    if (busy) return;
    setConfirming(true);
    const ok = await confirm({
      title: t('links.unlinkTitle', { name: nameOf(account) }),
      message: t('links.unlinkMessage'),
      confirm: t('links.unlink'),
      cancel: t('common:dialog.cancel'),
    }).finally(() => setConfirming(false));
    if (!ok) return;
    unlink.mutate(account.user_id, { onSuccess: () => setStatus(t('links.unlinked', { name: nameOf(account) })) });
  };

  return (
    <SettingsCard title={t('links.title')} wide testId="links-card">
      <p className="settings-card__note">{t('links.lead')}</p>
      {links.isPending ? (
        <p className="muted">{t('common:loading')}</p>
      ) : links.data && links.data.length > 0 ? (
        <ul className="linked-list" data-testid="linked-accounts">
          {links.data.map((account) => (
            <li key={account.user_id} className="linked-list__item">
              <span className="linked-list__avatar" aria-hidden="true">
                {nameOf(account).slice(0, 1).toUpperCase()}
              </span>
              <span className="linked-list__name">
                <strong>{nameOf(account)}</strong>
                {account.screen_name && <span className="muted small">@{account.username}</span>}
              </span>
              <span className="linked-list__actions">
                <button
                  type="button"
                  className="button button--primary button--small"
                  disabled={busy}
                  onClick={() => onSwitch(account)}
                  aria-label={t('links.switchTo', { name: nameOf(account) })}
                >
                  {t('links.switch')}
                </button>
                <button
                  type="button"
                  className="button button--small"
                  disabled={busy}
                  onClick={() => void onUnlink(account)}
                  aria-label={t('links.unlinkFrom', { name: nameOf(account) })}
                >
                  {t('links.unlink')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('links.none')}</p>
      )}
      <p className="settings-card__status" role="status">
        {status}
      </p>
      <h3 className="settings-card__subtitle">{t('links.connectTitle')}</h3>
      <Form form={form} className="form form--inline" data-testid="connect-form" onSubmit={onConnect}>
        <TextField form={form} name="login" autoComplete="off" autoCapitalize="off" spellCheck={false} />
        <PasswordField form={form} name="password" autoComplete="off" />
        <SubmitButton form={form}>{t('links.connect')}</SubmitButton>
      </Form>
    </SettingsCard>
  );
}
