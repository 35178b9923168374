import { LoginModal } from '#client/features/auth/login-modal.tsx';
import { ConfirmDialog } from '#client/components/dialogs/confirm-dialog.tsx';
import { NotificationDialog } from '#client/components/dialogs/notification-dialog.tsx';
import { ValidationDialog } from '#client/components/dialogs/validation-dialog.tsx';

/** Whichever dialogs lib/dialogs currently holds (loaded by DialogHost when the first one opens). */
export function Dialogs() {
  return (
    <>
      <LoginModal />
      <ConfirmDialog />
      <ValidationDialog />
      <NotificationDialog />
    </>
  );
}
