// The current password a change of the account asks for: an admin acting on someone else's account
// gives their own, and the hint says so.
import { useTranslation } from 'react-i18next';
import type { FieldValues } from 'react-hook-form';
import { PasswordField, type FieldProps } from '#client/components/form/index.ts';

export function CurrentPasswordField<In extends FieldValues>({
  asAdmin,
  autoFocus,
  ...field
}: Omit<FieldProps<In>, 'hint' | 'normalize'> & { asAdmin: boolean; autoFocus?: boolean }) {
  const { t } = useTranslation('settings');
  return (
    <PasswordField
      {...field}
      autoComplete="current-password"
      autoFocus={autoFocus}
      hint={asAdmin ? t('fields.adminPassword') : undefined}
    />
  );
}
