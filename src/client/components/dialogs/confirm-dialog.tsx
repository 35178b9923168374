import { useTranslation } from 'react-i18next';
import { settleConfirm, useDialogs } from '#client/lib/dialogs.ts';
import { DialogDescription, DialogFrame } from './dialog-frame';

/** Renders the pending `confirm()` call; Escape, outside click and Cancel all resolve false. */
export function ConfirmDialog() {
  const { t } = useTranslation();
  const { confirm } = useDialogs();
  const options = confirm?.options;
  return (
    <DialogFrame
      open={!!options}
      onClose={() => settleConfirm(false)}
      title={options?.title ?? t('dialog.confirmTitle')}
      role="alertdialog"
      described={!!options?.message}
      testId="confirm-dialog"
    >
      {options?.message && <DialogDescription className="dialog__message">{options.message}</DialogDescription>}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={() => settleConfirm(false)}>
          {options?.cancel ?? t('dialog.cancel')}
        </button>
        {/* The dialog's answer has the focus when it opens (WAI-ARIA dialog pattern). */}
        {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
        <button type="button" className="button button--primary" onClick={() => settleConfirm(true)} autoFocus>
          {options?.confirm ?? t('dialog.yes')}
        </button>
      </div>
    </DialogFrame>
  );
}
