// Choice controls of the edit sections on the form kit: one of a few (radio chips) and several of many
// (check chips), bound through react-hook-form's controller so a value may be null or a list.
import { useId, type ReactNode } from 'react';
import { get, useController, useFormState, type FieldPath, type FieldValues } from 'react-hook-form';
import { FieldMessages, type SchemaForm } from '#client/components/form/index.ts';

interface Option<V> {
  value: V;
  label: string;
}

function useChoice<In extends FieldValues>(form: SchemaForm<In, unknown>, name: FieldPath<In>) {
  const id = useId();
  const { field } = useController({ control: form.control, name });
  const { errors } = useFormState({ control: form.control, name });
  const error = (get(errors, name) as { message?: string } | undefined)?.message;
  return { id, field, error, errorId: error ? `${id}-error` : undefined };
}

/** One of a few options (gender, ad status...): a radio group drawn as chips. */
export function SingleChoiceField<In extends FieldValues, V extends string | boolean | null>({
  form,
  name,
  options,
  legend,
  hint,
}: {
  form: SchemaForm<In, unknown>;
  name: FieldPath<In>;
  options: Array<Option<V>>;
  legend?: ReactNode;
  hint?: ReactNode;
}) {
  const { id, field, error, errorId } = useChoice(form, name);
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <fieldset
      className={`field choice${error ? ' field--invalid' : ''}`}
      aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
    >
      <legend className="field__label">{legend ?? form.label(name)}</legend>
      <div className="choice__options" role="radiogroup">
        {options.map((option, i) => (
          <label key={String(option.value)} className="choice__option">
            <input
              type="radio"
              name={field.name}
              ref={i === 0 ? field.ref : undefined}
              checked={field.value === option.value}
              onChange={() => field.onChange(option.value)}
              onBlur={field.onBlur}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <FieldMessages error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </fieldset>
  );
}

/** Several of many (services, personality, languages): check chips; the value is the list of choices. */
export function MultiChoiceField<In extends FieldValues>({
  form,
  name,
  options,
  legend,
  hint,
  max,
}: {
  form: SchemaForm<In, unknown>;
  name: FieldPath<In>;
  options: Array<Option<string>>;
  legend?: ReactNode;
  hint?: ReactNode;
  /** Further choices are disabled once this many are chosen. */
  max?: number;
}) {
  const { id, field, error, errorId } = useChoice(form, name);
  const chosen = (field.value as string[] | undefined) ?? [];
  const full = max !== undefined && chosen.length >= max;
  const toggle = (value: string) =>
    field.onChange(chosen.includes(value) ? chosen.filter((v) => v !== value) : [...chosen, value]);
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <fieldset
      className={`field choice${error ? ' field--invalid' : ''}`}
      aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
    >
      <legend className="field__label">{legend ?? form.label(name)}</legend>
      <div className="choice__options">
        {options.map((option, i) => {
          const checked = chosen.includes(option.value);
          return (
            <label key={option.value} className="choice__option">
              <input
                type="checkbox"
                ref={i === 0 ? field.ref : undefined}
                checked={checked}
                disabled={!checked && full}
                onChange={() => toggle(option.value)}
                onBlur={field.onBlur}
              />
              <span>{option.label}</span>
            </label>
          );
        })}
      </div>
      <FieldMessages error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </fieldset>
  );
}
