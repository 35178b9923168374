import { useId, type ChangeEvent, type FocusEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import {
  get,
  useFormState,
  type FieldPath,
  type FieldValues,
  type RefCallBack,
  type RegisterOptions,
} from 'react-hook-form';
import type { SchemaForm } from './use-schema-form';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** What a control needs to be bound to its form and tied to its label, hint and error. */
export interface BoundControl {
  id: string;
  name: string;
  ref: RefCallBack;
  onChange: (event: ChangeEvent<Control>) => Promise<void>;
  onBlur: (event: FocusEvent<Control>) => Promise<void>;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface FieldOptions<In extends FieldValues> {
  hint?: ReactNode;
  /** Rewrites what was typed before it is kept (digits only for a PIN). */
  normalize?: (value: string) => string;
  /** react-hook-form's own options (valueAsNumber, setValueAs, deps...). */
  registerOptions?: RegisterOptions<In, FieldPath<In>>;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || value === false;

/**
 * Binds a control to a field of a schema form. A shown error follows the typing, so it goes as soon
 * as the value is right; leaving a filled field checks it; leaving an empty one does not (sending does).
 */
export function useField<In extends FieldValues>(
  form: SchemaForm<In, unknown>,
  name: FieldPath<In>,
  { hint, normalize, registerOptions }: FieldOptions<In> = {},
) {
  const id = useId();
  const { errors } = useFormState({ control: form.control, name });
  const error = (get(errors, name) as { message?: string } | undefined)?.message;
  const registration = form.register(name, registerOptions);
  const errorId = error ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  const control: BoundControl = {
    id,
    name: registration.name,
    ref: registration.ref,
    onChange: async (event) => {
      if (normalize && 'value' in event.target && event.target.type !== 'checkbox')
        event.target.value = normalize(event.target.value);
      await registration.onChange(event);
      if (form.getFieldState(name).error) await form.trigger(name);
    },
    onBlur: async (event) => {
      await registration.onBlur(event);
      if (!isEmpty(form.getValues(name))) await form.trigger(name);
    },
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [errorId, hintId].filter(Boolean).join(' ') || undefined,
  };
  return { id, label: form.label(name), error, errorId, hint, hintId, control };
}

export interface FieldProps<In extends FieldValues> extends FieldOptions<In> {
  form: SchemaForm<In, unknown>;
  name: FieldPath<In>;
  /** Replaces the form's label for this field. */
  label?: ReactNode;
  className?: string;
}

/**
 * A labelled field around any control (textarea, select...): the render prop spreads `control`
 * onto it, e.g. `{(control) => <select className="field__input" {...control}>...</select>}`.
 */
export function Field<In extends FieldValues>({
  form,
  name,
  label,
  className,
  children,
  ...options
}: FieldProps<In> & { children: (control: BoundControl) => ReactNode }) {
  const field = useField(form, name, options);
  return (
    <div className={`field${field.error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={field.id}>
        {label ?? field.label}
      </label>
      {children(field.control)}
      <FieldMessages error={field.error} errorId={field.errorId} hint={field.hint} hintId={field.hintId} />
    </div>
  );
}

type InputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'form' | 'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'children'
>;

/** A labelled text input (any `type` but checkbox) bound to a schema form. */
export function TextField<In extends FieldValues>({
  form,
  name,
  label,
  className,
  hint,
  normalize,
  registerOptions,
  type = 'text',
  ...input
}: FieldProps<In> & InputProps) {
  return (
    <Field form={form} name={name} label={label} className={className} {...{ hint, normalize, registerOptions }}>
      {(control) => <input className="field__input" type={type} {...control} {...input} />}
    </Field>
  );
}

/** The error, then the hint, under a field; their ids are what aria-describedby points at. */
export function FieldMessages(props: { error?: string; errorId?: string; hint?: ReactNode; hintId?: string }) {
  return (
    <>
      {props.error && (
        <p id={props.errorId} className="field__error">
          {props.error}
        </p>
      )}
      {props.hint && (
        <p id={props.hintId} className="field__hint">
          {props.hint}
        </p>
      )}
    </>
  );
}
