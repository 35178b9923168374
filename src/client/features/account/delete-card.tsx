// Account deletion (spec section 4): a "Delete Your Account?" confirmation with the current
// password; the data is removed within 14 days.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_PURGE_DAYS } from '#shared/constants.ts';
import { DeleteAccountBody } from '#shared/schemas/account.ts';
import { DialogDescription, DialogFrame } from '#client/components/dialogs/dialog-frame.tsx';
import { Form, SubmitButton, useSchemaForm } from '#client/components/form/index.ts';
import { useDeleteAccount, type AccountView } from './api';
import { CurrentPasswordField } from './current-password-field';
import { SettingsCard } from './settings-card';

export function DeleteCard({ account, isSelf, asAdmin }: { account: AccountView; isSelf: boolean; asAdmin: boolean }) {
  const { t } = useTranslation('settings');
  const [open, setOpen] = useState(false);
  const remove = useDeleteAccount(account.user_id, isSelf);
  const form = useSchemaForm(DeleteAccountBody, {
    defaultValues: { current_password: '' },
    labels: { current_password: t('fields.currentPassword') },
  });

  const close = () => {
    setOpen(false);
    form.reset();
  };

  return (
    <SettingsCard title={t('delete.title')} tone="danger" wide testId="delete-card">
      <p className="settings-card__note">{t('delete.lead', { days: ACCOUNT_PURGE_DAYS })}</p>
      <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
        {t('delete.open')}
      </button>

      <DialogFrame
        open={open}
        onClose={close}
        title={t('delete.confirmTitle')}
        role="alertdialog"
        layer="modal"
        described
        testId="delete-dialog"
      >
        <DialogDescription className="dialog__message">
          {t('delete.confirmMessage', { username: account.username, days: ACCOUNT_PURGE_DAYS })}
        </DialogDescription>
        <Form
          form={form}
          className="form"
          onSubmit={async (body) => {
            await remove.mutateAsync(body);
            setOpen(false);
          }}
        >
          <CurrentPasswordField form={form} name="current_password" asAdmin={asAdmin} autoFocus />
          <div className="dialog__actions">
            <button type="button" className="button" onClick={close}>
              {t('common:dialog.cancel')}
            </button>
            <SubmitButton form={form} className="button--danger">
              {t('delete.confirm')}
            </SubmitButton>
          </div>
        </Form>
      </DialogFrame>
    </SettingsCard>
  );
}
