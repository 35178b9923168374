import type { ReactNode } from 'react';
import type { FieldPath, FieldValues } from 'react-hook-form';
import { useField } from './field';
import type { SchemaForm } from './use-schema-form';

/** A checkbox whose label may hold links or buttons (the terms). */
export function CheckboxField<In extends FieldValues>({
  form,
  name,
  children,
}: {
  form: SchemaForm<In, unknown>;
  name: FieldPath<In>;
  children: ReactNode;
}) {
  const field = useField(form, name);
  return (
    <div className={`field field--check${field.error ? ' field--invalid' : ''}`}>
      <div className="field__check">
        <input type="checkbox" {...field.control} />
        <label htmlFor={field.id}>{children}</label>
      </div>
      {field.error && (
        <p id={field.errorId} className="field__error">
          {field.error}
        </p>
      )}
    </div>
  );
}
