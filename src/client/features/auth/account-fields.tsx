// The fields of an account's own rules, for every form that sets them (registration, the password
// reset, the account screen): the input each shared rule wants (#shared/schemas/auth.ts), its numbers
// handed to the screen's own hint. One place for all those forms. The email box is the form kit's
// EmailField (decision 0942).
import type { FieldValues } from 'react-hook-form';
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '#shared/schemas/auth.ts';
import { PasswordField, TextField, type FieldProps } from '#client/components/form/index.ts';

type RuleField<In extends FieldValues, Rule> = Omit<FieldProps<In>, 'hint' | 'normalize'> & {
  /** The screen's sentence, given the rule's numbers. */
  hint: (rule: Rule) => string;
};

export function UsernameField<In extends FieldValues>({ hint, ...field }: RuleField<In, { min: number; max: number }>) {
  return (
    <TextField
      {...field}
      autoComplete="username"
      autoCapitalize="off"
      spellCheck={false}
      maxLength={USERNAME_MAX}
      hint={hint({ min: USERNAME_MIN, max: USERNAME_MAX })}
    />
  );
}

/** A password being chosen: the browser may offer to make one. */
export function NewPasswordField<In extends FieldValues>({ hint, ...field }: RuleField<In, { count: number }>) {
  return <PasswordField {...field} autoComplete="new-password" hint={hint({ count: PASSWORD_MIN })} />;
}
