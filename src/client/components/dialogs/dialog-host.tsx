import { LoginModal } from '#client/components/login-modal.tsx';
import { ConfirmDialog } from './confirm-dialog';
import { NotificationDialog } from './notification-dialog';
import { ValidationDialog } from './validation-dialog';

/** Mounted once by the shell: renders whichever dialogs lib/dialogs currently holds. */
export function DialogHost() {
  return (
    <>
      <LoginModal />
      <ConfirmDialog />
      <ValidationDialog />
      <NotificationDialog />
    </>
  );
}
