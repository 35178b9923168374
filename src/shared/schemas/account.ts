// Bodies and answers of the account screen (/edit/account/{id}: email, mobile, password, username,
// delete account). Strict objects: unknown keys are rejected.
import { z } from 'zod';
import { requiredString } from '../api/fields';
import { LANGUAGES } from '../constants';
import { emailField, newPasswordField, passwordField, usernameField } from './auth';
import { messageText } from '../api/messages';

/** Spec section 5: international format starting with +. Spaces, dots, dashes and brackets are dropped. */
export const mobileField = (label = 'Mobile') =>
  requiredString(label, 40)
    .transform((v) => v.replace(/[\s().-]/g, ''))
    .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, messageText('auth:errors.mobile')));

export const ChangeEmailBody = z.strictObject({
  email: emailField('Email'),
  current_password: passwordField('Current password'),
});
export type ChangeEmailBody = z.infer<typeof ChangeEmailBody>;

export const ChangeMobileBody = z.strictObject({ mobile: mobileField() });
export type ChangeMobileBody = z.infer<typeof ChangeMobileBody>;

export const ChangePasswordBody = z.strictObject({
  current_password: passwordField('Current password'),
  password: newPasswordField('New password'),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const ChangeUsernameBody = z.strictObject({ username: usernameField() });
export type ChangeUsernameBody = z.infer<typeof ChangeUsernameBody>;

/** The menu's language switcher saves the choice on the account (spec section 1: the user's language). */
export const ChangeLanguageBody = z.strictObject({
  language: z.enum(LANGUAGES, { error: () => messageText('validation.languageChoice') }),
});
export type ChangeLanguageBody = z.infer<typeof ChangeLanguageBody>;

export const DeleteAccountBody = z.strictObject({ current_password: passwordField('Current password') });
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

/** GET /account/{id}: what the account screen shows. */
export const AccountView = z.object({
  user_id: z.number(),
  email: z.string(),
  email_verified: z.boolean(),
  /** New address waiting for its link to be clicked. */
  pending_email: z.string().nullable(),
  mobile: z.string().nullable(),
  mobile_verified: z.boolean(),
  /** New number waiting for its PIN (the /verify/pin/{hash} path came with the answer that sent it). */
  pending_mobile: z.string().nullable(),
  username: z.string(),
  role: z.enum(['advertiser', 'admin']),
  created_at: z.string(),
});
export type AccountView = z.infer<typeof AccountView>;
export const AccountResponse = z.object({ data: AccountView });
export type AccountResponse = z.infer<typeof AccountResponse>;

/** POST /account/{id}/language: the language now kept on the account. */
export const LanguageResponse = z.object({ data: z.object({ language: z.enum(LANGUAGES) }) });
export type LanguageResponse = z.infer<typeof LanguageResponse>;
