import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldValues } from 'react-hook-form';
import { Field, type FieldProps } from './field';
import type { InputHTMLAttributes } from 'react';

type InputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'form' | 'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'children' | 'type'
>;

/** A password input with a show/hide switch (easier on a phone than typing it twice). */
export function PasswordField<In extends FieldValues>({
  form,
  name,
  label,
  className,
  hint,
  registerOptions,
  autoComplete = 'current-password',
  ...input
}: Omit<FieldProps<In>, 'normalize'> & InputProps) {
  const { t } = useTranslation('auth');
  const [shown, setShown] = useState(false);
  return (
    <Field form={form} name={name} label={label} className={className} hint={hint} registerOptions={registerOptions}>
      {(control) => (
        <div className="field__password">
          <input
            className="field__input"
            type={shown ? 'text' : 'password'}
            {...control}
            autoComplete={autoComplete}
            autoCapitalize="off"
            spellCheck={false}
            {...input}
          />
          <button
            type="button"
            className="field__reveal"
            aria-controls={control.id}
            aria-pressed={shown}
            onClick={() => setShown((value) => !value)}
          >
            {shown ? t('form.hide') : t('form.show')}
          </button>
        </div>
      )}
    </Field>
  );
}
