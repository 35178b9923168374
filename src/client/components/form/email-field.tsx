import type { FieldValues } from 'react-hook-form';
import { TextField, type FieldProps } from './field';

/**
 * An email address (the shared rule `emailField`), the same input wherever an address is typed
 * (registration, forgotten password, the account screen, the help form; decision 0942): the browser's
 * email keyboard and check, its stored addresses offered, no capital letter or spelling fix forced on it.
 * The label, hint and error come from the form like any field's. In the form kit, which every form's
 * chunk already holds, so no screen loads a file more for it.
 */
export function EmailField<In extends FieldValues>(field: Omit<FieldProps<In>, 'normalize'>) {
  return <TextField {...field} type="email" autoComplete="email" autoCapitalize="off" spellCheck={false} />;
}
