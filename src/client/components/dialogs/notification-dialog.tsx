import { useTranslation } from 'react-i18next';
import { closeNotification, useDialogs, type NotificationIcon, type NotificationOptions } from '#client/lib/dialogs.ts';
import { navigate } from '#client/lib/navigation.ts';
import { DialogDescription, DialogFrame } from './dialog-frame';

const ICON_GLYPHS: Record<NotificationIcon, string> = { success: '✓', error: '!', warning: '!', info: 'i' };

/** After OK (or closing a notice that offers no Cancel): follow its path or reload. */
function follow(options: NotificationOptions): void {
  if (options.path) {
    if (options.reload) window.location.assign(options.path);
    else navigate(options.path);
  } else if (options.reload) {
    window.location.reload();
  }
}

export function NotificationDialog() {
  const { t } = useTranslation();
  const { notification } = useDialogs();
  const options = notification?.options;

  const finish = (confirmed: boolean) => {
    const closed = closeNotification(confirmed);
    if (closed && (confirmed || !closed.cancel)) follow(closed);
  };

  return (
    <DialogFrame
      open={!!options}
      onClose={() => finish(false)}
      title={options?.title ?? t('dialog.notificationTitle')}
      described
      testId="notification-dialog"
      icon={
        options?.icon ? (
          <span className={`dialog__icon dialog__icon--${options.icon}`} aria-hidden="true">
            {ICON_GLYPHS[options.icon]}
          </span>
        ) : null
      }
    >
      {/* Plain text unless the server marked its message as HTML (spec: "message (HTML allowed)"); its values
          are escaped by the server then (src/server/lib/message-i18n.ts). */}
      <DialogDescription asChild>
        {options?.html ? (
          <div className="dialog__message" dangerouslySetInnerHTML={{ __html: options.message }} />
        ) : (
          <div className="dialog__message">{options?.message}</div>
        )}
      </DialogDescription>
      {(options?.ok || options?.cancel) && (
        <div className="dialog__actions">
          {options.cancel && (
            <button type="button" className="button" onClick={() => finish(false)}>
              {options.cancel}
            </button>
          )}
          {/* The dialog's answer has the focus when it opens (WAI-ARIA dialog pattern). */}
          {options.ok && (
            // eslint-disable-next-line jsx-a11y/no-autofocus
            <button type="button" className="button button--primary" onClick={() => finish(true)} autoFocus>
              {options.ok}
            </button>
          )}
        </div>
      )}
    </DialogFrame>
  );
}
