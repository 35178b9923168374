// Forms of the auth and settings screens, validated in the browser by the same Zod schemas the
// server uses (DESIGN.md section 3). react-hook-form is not a dependency, so this is a small
// controlled-form hook: errors show after a field is left or the form is sent, and clear as the
// user fixes them. Zod's English messages are replaced by translated ones chosen by issue code.
import { useCallback, useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { MIN_AGE } from '#shared/constants.ts';
import { ageOn, isCalendarDate } from '#shared/rules/date-of-birth.ts';
import { ApiError } from '#client/lib/api.ts';
import './auth.css';

export type FormValues = Record<string, string | boolean>;
type Issue = z.core.$ZodIssue;
type Translate = ReturnType<typeof useTranslation>['t'];

/** Messages of a pattern (regex) rule, by field name: Zod only says "invalid format". */
const PATTERN_MESSAGES: Record<string, string> = {
  username: 'auth:errors.usernameChars',
  mobile: 'auth:errors.mobile',
  pin: 'auth:errors.pin',
  date_of_birth: 'auth:errors.dateFormat',
};

/** One translated sentence for a Zod issue of a field labelled `label`. */
export function issueMessage(t: Translate, issue: Issue, field: string, label: string, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return t('auth:errors.blank', { label });
    case 'too_small':
      return Number(issue.minimum) <= 1
        ? t('auth:errors.blank', { label })
        : t('auth:errors.tooShort', { label, count: Number(issue.minimum) });
    case 'too_big':
      return t('auth:errors.tooLong', { label, count: Number(issue.maximum) });
    case 'invalid_format':
      if (issue.format === 'email') return t('auth:errors.email');
      return PATTERN_MESSAGES[field] ? t(PATTERN_MESSAGES[field]) : t('auth:errors.format', { label });
    case 'invalid_value':
      return field === 'terms' ? t('auth:errors.terms') : t('auth:errors.format', { label });
    case 'custom':
      if (field === 'date_of_birth') {
        const text = typeof value === 'string' ? value : '';
        return isCalendarDate(text) && ageOn(text, new Date()) < MIN_AGE
          ? t('auth:errors.tooYoung', { age: MIN_AGE })
          : t('auth:errors.dateInvalid', { label });
      }
      return issue.message;
    default:
      return issue.message;
  }
}

/** What a field needs from its form. */
export interface FormBinding<V extends FormValues> {
  values: V;
  errors: Partial<Record<keyof V & string, string>>;
  set<K extends keyof V & string>(field: K, value: V[K]): void;
  /** Validates one field (on blur). */
  touch(field: keyof V & string): void;
  label(field: keyof V & string): string;
}

export interface SchemaForm<V extends FormValues, Out> extends FormBinding<V> {
  submitting: boolean;
  reset(values?: V): void;
  /** An onSubmit handler: validates everything, then runs `onValid` with the parsed body. */
  submit(onValid: (data: Out) => Promise<void> | void): (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * @param labels translated label of each field; they name the field in the error messages.
 */
export function useSchemaForm<V extends FormValues, Out>(
  schema: z.ZodType<Out>,
  initial: V,
  labels: Record<keyof V & string, string>,
): SchemaForm<V, Out> {
  const { t } = useTranslation('auth');
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof V & string, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const busy = useRef(false);

  const check = useCallback(
    (next: V): Partial<Record<keyof V & string, string>> => {
      const result = schema.safeParse(next);
      const found: Partial<Record<keyof V & string, string>> = {};
      if (result.success) return found;
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? '') as keyof V & string;
        if (!(field in next) || found[field]) continue;
        found[field] = issueMessage(t, issue, field, labels[field] ?? field, next[field]);
      }
      return found;
    },
    [schema, t, labels],
  );

  const set = <K extends keyof V & string>(field: K, value: V[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // A shown error follows the typing, so it disappears as soon as the value is right.
    if (errors[field]) setErrors((current) => ({ ...current, [field]: check(next)[field] }));
  };

  const touch = (field: keyof V & string) => {
    const value = values[field];
    // Leaving an empty field untouched is not an error yet; sending the form is.
    if (value === '' || value === false) return;
    setErrors((current) => ({ ...current, [field]: check(values)[field] }));
  };

  const submit = (onValid: (data: Out) => Promise<void> | void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy.current) return;
    const form = event.currentTarget;
    const result = schema.safeParse(values);
    const found = check(values);
    setErrors(found);
    if (!result.success) {
      const first = Object.keys(values).find((field) => found[field as keyof V & string]);
      if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    busy.current = true;
    setSubmitting(true);
    Promise.resolve(onValid(result.data))
      .catch((error: unknown) => {
        // The API client has already shown it (validation dialog, 429 notice, login modal).
        if (!(error instanceof ApiError)) throw error;
      })
      .finally(() => {
        busy.current = false;
        setSubmitting(false);
      });
  };

  const reset = (next: V = initial) => {
    setValues(next);
    setErrors({});
  };

  return { values, errors, submitting, set, touch, reset, submit, label: (field) => labels[field] ?? field };
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'name' | 'value' | 'onChange' | 'onBlur'>;

interface FieldProps<V extends FormValues> extends InputProps {
  form: FormBinding<V>;
  name: keyof V & string;
  hint?: ReactNode;
  /** Rewrites what was typed before it is kept (digits only for a PIN). */
  normalize?: (value: string) => string;
}

/** A labelled text input bound to a schema form, with its hint and error tied to it for screen readers. */
export function TextField<V extends FormValues>({
  form,
  name,
  hint,
  type = 'text',
  className,
  normalize,
  ...rest
}: FieldProps<V>) {
  const id = useId();
  const error = form.errors[name];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={id}>
        {form.label(name)}
      </label>
      <input
        id={id}
        className="field__input"
        name={name}
        type={type}
        value={String(form.values[name] ?? '')}
        onChange={(event) =>
          form.set(name, (normalize ? normalize(event.target.value) : event.target.value) as V[typeof name])
        }
        onBlur={() => form.touch(name)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        {...rest}
      />
      <FieldMessages error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </div>
  );
}

/** A password input with a show/hide switch (easier on a phone than typing it twice). */
export function PasswordField<V extends FormValues>({
  form,
  name,
  hint,
  autoComplete = 'current-password',
  normalize: _normalize,
  ...rest
}: FieldProps<V>) {
  const { t } = useTranslation('auth');
  const [shown, setShown] = useState(false);
  const id = useId();
  const error = form.errors[name];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {form.label(name)}
      </label>
      <div className="field__password">
        <input
          id={id}
          className="field__input"
          name={name}
          type={shown ? 'text' : 'password'}
          value={String(form.values[name] ?? '')}
          onChange={(event) => form.set(name, event.target.value as V[typeof name])}
          onBlur={() => form.touch(name)}
          autoComplete={autoComplete}
          autoCapitalize="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
          {...rest}
        />
        <button
          type="button"
          className="field__reveal"
          aria-controls={id}
          aria-pressed={shown}
          onClick={() => setShown((value) => !value)}
        >
          {shown ? t('form.hide') : t('form.show')}
        </button>
      </div>
      <FieldMessages error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </div>
  );
}

/** A checkbox whose label may hold links (terms). */
export function CheckboxField<V extends FormValues>({
  form,
  name,
  children,
}: {
  form: FormBinding<V>;
  name: keyof V & string;
  children: ReactNode;
}) {
  const id = useId();
  const error = form.errors[name];
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={`field field--check${error ? ' field--invalid' : ''}`}>
      <div className="field__check">
        <input
          id={id}
          name={name}
          type="checkbox"
          checked={form.values[name] === true}
          onChange={(event) => form.set(name, event.target.checked as V[typeof name])}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
        />
        <label htmlFor={id}>{children}</label>
      </div>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

export function SubmitButton({
  busy,
  children,
  className,
}: {
  busy: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <button
      type="submit"
      className={`button button--primary form__submit${className ? ` ${className}` : ''}`}
      disabled={busy}
      aria-busy={busy || undefined}
    >
      {children}
    </button>
  );
}

/** The error, then the hint, under a field; their ids are what aria-describedby points at. */
function FieldMessages(props: { error?: string; errorId?: string; hint?: ReactNode; hintId?: string }) {
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
