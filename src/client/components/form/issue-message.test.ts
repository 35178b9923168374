import { describe, expect, it } from 'vitest';
import type { useTranslation } from 'react-i18next';
import { ChangeMobileBody } from '#shared/schemas/account.ts';
import { RegisterBody } from '#shared/schemas/auth.ts';
import { GenderSection, PhoneSection, ScreenNameSection } from '#shared/schemas/profile-edit.ts';
import { issueMessage } from './issue-message';

// Echoes the key and its values, so the test sees which message was chosen.
const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as unknown as ReturnType<typeof useTranslation>['t'];

function messages(
  schema: { safeParse(v: unknown): { error?: { issues: Parameters<typeof issueMessage>[1][] } } },
  values: Record<string, unknown>,
) {
  const out: Record<string, string> = {};
  for (const issue of schema.safeParse(values).error?.issues ?? []) {
    const field = String(issue.path[0]);
    out[field] ??= issueMessage(t, issue, field.toUpperCase(), values[field]);
  }
  return out;
}

describe('issueMessage', () => {
  it("says the key each shared schema rule carries, with the form's label", () => {
    const found = messages(RegisterBody, {
      email: '',
      username: 'a!',
      password: 'short',
      date_of_birth: '2015-01-01',
      terms: false,
    });
    expect(found.email).toBe('auth:errors.blank {"label":"EMAIL"}');
    expect(found.username).toBe('auth:errors.tooShort {"label":"USERNAME","count":3}');
    expect(found.password).toBe('auth:errors.tooShort {"label":"PASSWORD","count":8}');
    expect(found.date_of_birth).toBe('auth:errors.tooYoung {"age":18,"label":"DATE_OF_BIRTH"}');
    expect(found.terms).toBe('auth:errors.terms {"label":"TERMS"}');
  });

  it('tells an impossible date from a too recent one, and words pattern rules as the schema does', () => {
    expect(messages(RegisterBody, { date_of_birth: '1990-02-30' }).date_of_birth).toBe(
      'auth:errors.dateInvalid {"label":"DATE_OF_BIRTH"}',
    );
    expect(messages(RegisterBody, { email: 'nope' }).email).toBe('auth:errors.email {"label":"EMAIL"}');
    expect(messages(RegisterBody, { username: '_abc' }).username).toBe(
      'auth:errors.usernameChars {"label":"USERNAME"}',
    );
    expect(messages(ChangeMobileBody, { mobile: '07700 900123' }).mobile).toBe('auth:errors.mobile {"label":"MOBILE"}');
  });

  it('uses the translation a shared rule names, and calls an empty choice blank', () => {
    expect(messages(ScreenNameSection, { screen_name: 'Best GFE in town' }).screen_name).toBe(
      'edit:errors.screenName {"label":"SCREEN_NAME"}',
    );
    expect(messages(PhoneSection, { phone: '0207946' }).phone).toBe('edit:errors.phoneCountryCode {"label":"PHONE"}');
    expect(messages(GenderSection, { gender: '' }).gender).toBe('auth:errors.blank {"label":"GENDER"}');
  });
});
