import { useTranslation } from 'react-i18next';
import { closeValidationErrors, useDialogs } from '#client/lib/dialogs.ts';
import { splitAtFirstLineBreak } from '#client/lib/line-breaks.ts';
import { DialogDescription, DialogFrame } from './dialog-frame';

/** Spec section 2: the error message as title, the errors grouped by field, each item's first line break shown. */
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
                    <MessageText text={message} />
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

function MessageText({ text }: { text: string }) {
  const [first, rest] = splitAtFirstLineBreak(text);
  if (rest === null) return first;
  return (
    <>
      {first}
      <br />
      {rest}
    </>
  );
}
