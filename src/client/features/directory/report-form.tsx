// The report channel of DESIGN.md: setFeedback with a reason. The two safeguarding reasons ("may be
// under 18", "not of their own free will") come first and stand out; they go to the top of the
// admin queue.
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_REASONS, URGENT_FEEDBACK_REASONS } from '#shared/constants.ts';
import type { Profile } from '#shared/schemas/directory.ts';
import { DialogDescription, DialogFrame } from '#client/components/dialogs/dialog-frame.tsx';
import { sendFeedback, type FeedbackReason } from './api';

const isUrgent = (reason: FeedbackReason) => URGENT_FEEDBACK_REASONS.includes(reason);

/** The report dialog (loaded when the report button of report-profile.tsx is first pressed). */
export function ReportDialog({ profile, onClose }: { profile: Profile; onClose: () => void }) {
  const { t } = useTranslation('directory');
  const [reason, setReason] = useState<FeedbackReason | null>(null);
  const [message, setMessage] = useState('');
  const [contact, setContact] = useState('');
  const [sending, setSending] = useState(false);
  const uid = useId();
  const urgent = FEEDBACK_REASONS.filter(isUrgent);
  const other = FEEDBACK_REASONS.filter((r) => !isUrgent(r));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason || sending) return;
    setSending(true);
    try {
      await sendFeedback({
        profile_id: profile.user_id,
        reason,
        message: message.trim() || undefined,
        contact: contact.trim() || undefined,
      });
      onClose();
    } catch {
      // Shown by the API client (validation dialog or notice); the form keeps what was typed.
    } finally {
      setSending(false);
    }
  };

  const option = (r: FeedbackReason) => (
    <label key={r} className={`report__option${isUrgent(r) ? ' report__option--urgent' : ''}`}>
      <input
        type="radio"
        name={`${uid}-reason`}
        value={r}
        checked={reason === r}
        onChange={() => setReason(r)}
        required
      />
      <span>{t(`report.reasons.${r}`)}</span>
    </label>
  );

  return (
    <DialogFrame
      open
      onClose={onClose}
      title={t('report.title', { name: profile.screen_name })}
      described
      className="dialog--report"
      testId="report-dialog"
    >
      <form onSubmit={(event) => void submit(event)}>
        <DialogDescription className="dialog__message">{t('report.intro')}</DialogDescription>
        <fieldset className="report__group report__group--urgent">
          <legend>{t('report.urgent')}</legend>
          {urgent.map(option)}
          <p className="small report__urgent-note">{t('report.urgentNote')}</p>
        </fieldset>
        <fieldset className="report__group">
          <legend>{t('report.other')}</legend>
          {other.map(option)}
        </fieldset>
        <label className="report__label" htmlFor={`${uid}-message`}>
          {t('report.message')}
        </label>
        <textarea
          id={`${uid}-message`}
          className="dir-input"
          rows={3}
          maxLength={2000}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
        <label className="report__label" htmlFor={`${uid}-contact`}>
          {t('report.contact')}
        </label>
        <input
          id={`${uid}-contact`}
          className="dir-input"
          maxLength={200}
          value={contact}
          onChange={(e) => setContact(e.target.value)}
          autoComplete="email"
        />
        <p className="small muted">{t('report.contactNote')}</p>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common:dialog.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={!reason || sending}>
            {t('report.submit')}
          </button>
        </div>
      </form>
    </DialogFrame>
  );
}
