// react-hook-form driven by a shared Zod schema (@hookform/resolvers), with our translated sentences
// instead of Zod's English ones.
import { toNestErrors } from '@hookform/resolvers';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  get,
  useForm,
  type FieldError,
  type DefaultValues,
  type FieldValues,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { issueMessage, type Issue } from './issue-message';

/** A react-hook-form form that also knows the translated label of each field. */
export interface SchemaForm<In extends FieldValues = FieldValues, Out = In> extends UseFormReturn<In, unknown, Out> {
  /** The label shown above a field; it also names the field in its error messages. */
  label(name: string): string;
}

export interface SchemaFormOptions<In extends FieldValues> extends Omit<
  UseFormProps<In, unknown>,
  'resolver' | 'defaultValues' | 'mode' | 'reValidateMode' | 'formControl'
> {
  defaultValues: In;
  /** Translated label of each field, by field name (dotted path for nested fields). */
  labels: Record<string, string>;
}

type Describe = (issue: Issue, field: string, value: unknown) => string;

/**
 * zodResolver parses and returns the schema's output. Its error messages are the English sentences
 * the shared schemas carry for the server's 422 bodies, so a failed result is rebuilt from the
 * issues, which hold what a translated sentence needs (code, minimum, format).
 */
export function translatedResolver<In extends FieldValues, Out>(
  schema: z.ZodType<Out, In>,
  describe: Describe,
): Resolver<In, unknown, Out> {
  const resolve = zodResolver(schema) as unknown as Resolver<In, unknown, Out>;
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    if (Object.keys(result.errors).length === 0) return result;
    const { error } = await schema.safeParseAsync(values);
    const errors: Record<string, FieldError> = {};
    for (const issue of error?.issues ?? []) {
      const field = issue.path.join('.');
      if (!field || errors[field]) continue;
      errors[field] = { type: issue.code, message: describe(issue, field, get(values, field)) };
    }
    return { values: {}, errors: toNestErrors(errors, options) };
  };
}

/**
 * A form checked by `schema` in the browser, the same schema the server checks the body with.
 * Errors show once a filled field is left or the form is sent, and follow the typing from then on
 * (the fields of this kit do that); the first invalid field gets the focus on sending.
 */
export function useSchemaForm<In extends FieldValues, Out>(
  schema: z.ZodType<Out, In>,
  { labels, defaultValues, ...options }: SchemaFormOptions<In>,
): SchemaForm<In, Out> {
  // `messages` holds the sentences of the schemas' own rules (issue-message.ts).
  const { t } = useTranslation(['auth', 'messages']);
  const form = useForm<In, unknown, Out>({
    ...options,
    defaultValues: defaultValues as DefaultValues<In>,
    // Built on every render (cheap), so messages follow the language and labels of the moment.
    resolver: translatedResolver(schema, (issue, field, value) =>
      issueMessage(t, issue, labels[field] ?? field, value),
    ),
    mode: 'onSubmit',
    reValidateMode: 'onBlur',
  });
  return { ...form, label: (name) => labels[name] ?? name };
}
