import { LoginModal } from '#client/components/login-modal.tsx';
import { ConfirmDialog } from './confirm-dialog';
import { NotificationDialog } from './notification-dialog';
import { ValidationDialog } from './validation-dialog';

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
