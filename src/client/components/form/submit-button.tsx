import type { ReactNode } from 'react';
import { useFormState, type Control, type FieldValues } from 'react-hook-form';

/** The form's submit button: disabled and marked busy while the form is being sent. */
export function SubmitButton<In extends FieldValues>({
  form,
  children,
  className,
}: {
  form: { control: Control<In, unknown, unknown> };
  children: ReactNode;
  className?: string;
}) {
  const { isSubmitting } = useFormState({ control: form.control });
  return (
    <button
      type="submit"
      className={`button button--primary form__submit${className ? ` ${className}` : ''}`}
      disabled={isSubmitting}
      aria-busy={isSubmitting || undefined}
    >
      {children}
    </button>
  );
}
