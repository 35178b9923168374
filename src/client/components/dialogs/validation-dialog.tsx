import { useTranslation } from 'react-i18next';
import { closeValidationErrors, useDialogs } from '#client/lib/dialogs.ts';
import { DialogDescription, DialogFrame } from './dialog-frame';

/** Spec section 2: the error message as title, the errors grouped by field, line breaks kept. */
export function ValidationDialog() {
  const { t } = useTranslation();
  const { validation } = useDialogs();
  return (
    <DialogFrame
      open={!!validation}
      onClose={closeValidationErrors}
      title={validation?.message ?? ''}
      role="alertdialog"
      described
      testId="validation-dialog"
      icon={
        <span className="dialog__icon dialog__icon--error" aria-hidden="true">
          !
        </span>
      }
    >
      <DialogDescription asChild>
        <ul className="field-errors">
          {Object.entries(validation?.errors ?? {}).map(([field, messages]) => (
            <li key={field} className="field-errors__group" data-field={field}>
              <ul>
                {messages.map((message, index) => (
                  <li key={index} className="field-errors__message">
                    {message}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </DialogDescription>
      <div className="dialog__actions">
        {/* The dialog's answer has the focus when it opens (WAI-ARIA dialog pattern). */}
        {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
        <button type="button" className="button button--primary" onClick={closeValidationErrors} autoFocus>
          {t('dialog.close')}
        </button>
      </div>
    </DialogFrame>
  );
}
