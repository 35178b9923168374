import { describe, expect, it } from 'vitest';
import type { FieldValues, ResolverOptions } from 'react-hook-form';
import { z } from 'zod';
import { ChangeEmailBody } from '#shared/schemas/account.ts';
import { ApiError } from '#client/lib/api.ts';
import { setServerErrors } from './form';
import { translatedResolver, type SchemaForm } from './use-schema-form';

// What react-hook-form passes a resolver; these tests read no field refs.
const options = <V extends FieldValues>() => ({ fields: {}, shouldUseNativeValidation: false }) as ResolverOptions<V>;

describe('translatedResolver', () => {
  const resolve = translatedResolver(ChangeEmailBody, (issue, field) => `${field}:${issue.code}`);

  it("gives each failing field the sentence chosen for its first issue, never Zod's own", async () => {
    const result = await resolve({ email: 'nope', current_password: '' }, undefined, options());
    expect(result.values).toEqual({});
    expect(result.errors).toEqual({
      email: { type: 'invalid_format', message: 'email:invalid_format' },
      current_password: { type: 'too_small', message: 'current_password:too_small' },
    });
  });

  it("hands the schema's output to the form once the values pass", async () => {
    const result = await resolve({ email: '  Someone@Example.ORG ', current_password: ' pw ' }, undefined, options());
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ email: 'someone@example.org', current_password: ' pw ' });
  });

  it('nests the errors of nested fields by their path', async () => {
    const schema = z.object({ rates: z.object({ hour: z.number().min(1) }) });
    const result = await translatedResolver(schema, (issue, field, value) => `${field}=${String(value)}`)(
      { rates: { hour: 0 } },
      undefined,
      options(),
    );
    expect(result.errors).toEqual({ rates: { hour: { type: 'too_small', message: 'rates.hour=0' } } });
  });
});

describe('setServerErrors', () => {
  function fakeForm(values: Record<string, unknown>) {
    const set: Record<string, unknown> = {};
    const form = {
      getValues: () => values,
      setError: (name: string, error: unknown) => {
        set[name] = error;
      },
    } as unknown as SchemaForm;
    return { form, set };
  }

  it("puts a 422's messages under the fields the form has, leaving the others to the dialog", () => {
    const { form, set } = fakeForm({ email: 'a@b.c', current_password: 'x' });
    const body = {
      message: 'Please check what you entered.',
      errors: { email: ['Taken.', 'Really.'], other: ['No.'] },
    };
    setServerErrors(form, new ApiError(422, body, body.message));
    expect(set).toEqual({ email: { type: 'server', message: 'Taken. Really.' } });
  });

  it('leaves other failures alone', () => {
    const { form, set } = fakeForm({ email: '' });
    setServerErrors(form, new ApiError(429, { message: 'Too many attempts.' }, 'Too many attempts.'));
    setServerErrors(form, new ApiError(422, { message: 'no errors object' }, 'x'));
    expect(set).toEqual({});
  });
});
