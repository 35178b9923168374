// The accessible frame every dialog and modal shares (Radix Dialog: focus trap, Escape closes,
// focus returns to the opener). Layering per spec section 9: dialogs 10000, other modals 9999.
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DIALOG_Z_INDEX, MODAL_Z_INDEX } from '#shared/constants.ts';
import { useReturnFocus } from '#client/lib/focus-return.ts';

export interface DialogFrameProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  /** Dialog layer (10000) or modal layer (9999). */
  layer?: 'dialog' | 'modal';
  role?: 'dialog' | 'alertdialog';
  /** Set when the body has a Dialog.Description; otherwise the dialog has none. */
  described?: boolean;
  icon?: ReactNode;
  className?: string;
  children: ReactNode;
  testId?: string;
}

export function DialogFrame({
  open,
  onClose,
  title,
  layer = 'dialog',
  role = 'dialog',
  described,
  icon,
  className,
  children,
  testId,
}: DialogFrameProps) {
  const { t } = useTranslation();
  const zIndex = layer === 'dialog' ? DIALOG_Z_INDEX : MODAL_Z_INDEX;
  const returnFocus = useReturnFocus(open);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" style={{ zIndex }} />
        <Dialog.Content
          className={`dialog${className ? ` ${className}` : ''}`}
          style={{ zIndex }}
          role={role}
          onCloseAutoFocus={returnFocus}
          data-testid={testId}
          {...(described ? {} : { 'aria-describedby': undefined })}
        >
          <div className="dialog__header">
            {icon}
            <Dialog.Title className="dialog__title">{title}</Dialog.Title>
            <Dialog.Close className="dialog__close" aria-label={t('dialog.close')}>
              <span aria-hidden="true">×</span>
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export const DialogDescription = Dialog.Description;
