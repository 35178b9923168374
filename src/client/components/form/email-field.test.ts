// The email box written once (decision 0942): the input every form that asks for an address renders,
// and no form of the client writing its own.
import fs from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ForgotPasswordBody } from '#shared/schemas/auth.ts';
import { useSchemaForm } from '#client/components/form/index.ts';
import { EmailField } from './email-field';
import { renderWith, testI18n } from '#client/lib/test-i18n.ts';

let i18n: I18n;

beforeAll(async () => {
  i18n = await testI18n(['auth', 'messages']);
});

function render(error?: string) {
  function Box() {
    const form = useSchemaForm(ForgotPasswordBody, {
      defaultValues: { email: '' },
      labels: { email: 'Your email' },
      // react-hook-form's own option: errors set from outside, as a sent form or a 422 would.
      errors: error ? { email: { type: 'server', message: error } } : undefined,
    });
    return createElement(EmailField<{ email: string }>, { form, name: 'email', hint: 'We never show it.' });
  }
  return renderWith(i18n, createElement(Box));
}

describe('EmailField', () => {
  it('is an email input, offered stored addresses, with no capital or spelling fix, under its label', () => {
    const html = render();
    const input = /<input [^>]*>/.exec(html)?.[0] ?? '';
    expect(input).toContain('type="email"');
    expect(input).toContain('name="email"');
    expect(input).toContain('autoComplete="email"');
    expect(input).toContain('autoCapitalize="off"');
    expect(input).toContain('spellCheck="false"');
    const id = /id="([^"]+)"/.exec(input)?.[1];
    expect(html).toContain(`<label class="field__label" for="${id}">Your email</label>`);
    expect(html).toContain('We never show it.');
  });

  it("shows the field's error under it and points the input at it", () => {
    const html = render('This address is taken.');
    expect(html).toContain('field--invalid');
    const errorId = /<p id="([^"]+)" class="field__error">This address is taken\.<\/p>/.exec(html)?.[1];
    expect(errorId).toBeTruthy();
    expect(html).toMatch(new RegExp(`aria-describedby="${errorId}[^"]*"`));
    expect(html).toContain('aria-invalid="true"');
  });

  it('is the only email input the client writes: the four forms use it', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const files = fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx$/.test(f) && !f.endsWith('.test.tsx'));
    const own = path.join('components', 'form', 'email-field.tsx');
    const elsewhere = files.filter(
      (f) => f !== own && /type="email"/.test(fs.readFileSync(path.join(root, f), 'utf8')),
    );
    expect(elsewhere).toEqual([]);
    for (const form of [
      'features/auth/register-page.tsx',
      'features/auth/forgot-password-page.tsx',
      'features/account/account-cards.tsx',
      'features/pages/help-page.tsx',
    ])
      expect(fs.readFileSync(path.join(root, form), 'utf8'), form).toContain('<EmailField form={form} name="email"');
  });
});
