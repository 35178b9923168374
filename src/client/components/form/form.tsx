import { useRef, type FormEvent, type FormHTMLAttributes } from 'react';
import { FormProvider, type FieldValues, type Path } from 'react-hook-form';
import { ValidationErrorBody } from '#shared/api/errors.ts';
import { ApiError } from '#client/lib/api.ts';
import type { SchemaForm } from './use-schema-form';

/**
 * Puts a 422 answer's messages under the fields they name, as well as in the validation dialog the
 * API client shows (spec section 8); fields this form does not have are left to the dialog.
 */
export function setServerErrors<In extends FieldValues>(form: SchemaForm<In, unknown>, error: ApiError): void {
  if (error.status !== 422) return;
  const body = ValidationErrorBody.safeParse(error.body);
  if (!body.success) return;
  const values = form.getValues() as Record<string, unknown>;
  for (const [field, messages] of Object.entries(body.data.errors)) {
    if (field in values && messages.length > 0)
      form.setError(field as Path<In>, { type: 'server', message: messages.join(' ') });
  }
}

type FormProps<In extends FieldValues, Out> = Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'noValidate'> & {
  form: SchemaForm<In, Out>;
  /** Runs with the schema's output once the browser-side check passed; usually a mutation's mutateAsync. */
  onSubmit: (data: Out) => Promise<unknown> | void;
};

/**
 * The <form> of a schema form: checks in the browser, sends once at a time, and turns a refused call
 * into field errors. The API client has already told the user about any failure (validation dialog,
 * 429 notice, login modal), so an ApiError ends the submission quietly.
 */
export function Form<In extends FieldValues, Out>({ form, onSubmit, children, ...props }: FormProps<In, Out>) {
  const busy = useRef(false);
  const submit = form.handleSubmit(async (data) => {
    try {
      await onSubmit(data);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setServerErrors(form, error);
    }
  });
  const onFormSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (busy.current) {
      event.preventDefault();
      return;
    }
    busy.current = true;
    void submit(event).finally(() => {
      busy.current = false;
    });
  };
  return (
    <FormProvider {...form}>
      <form {...props} onSubmit={onFormSubmit} noValidate>
        {children}
      </form>
    </FormProvider>
  );
}
