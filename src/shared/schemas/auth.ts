// Bodies and answers of the auth calls (spec section 7, "Auth"), shared by the browser forms and the
// server. Every body is a strict object: an unknown key (role, balance, verified...) is rejected with
// a 422, so no call can set a field it does not name.
import { z } from 'zod';
import { blankMessage, NotificationBody } from '../api/errors';
import { coercedId, FIRST_DATE, requiredString, text } from '../api/fields';
import { MIN_AGE, PIN_LENGTH } from '../constants';
import { ageOn, isCalendarDate } from '../rules/date-of-birth.ts';
import { messageText } from '../api/messages';
import { errorAnswers, WRITE_ERRORS } from './route-answers';

export const PASSWORD_MIN = 8;
/** ASVS 2.1.2 allows at least 64; the cap keeps argon2 work bounded. */
export const PASSWORD_MAX = 128;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;

/** A password as typed: never trimmed (spaces are characters of it). */
export function passwordField(label: string, max = 1024) {
  return text(label, max, blankMessage(label)).min(1, blankMessage(label));
}

/** A password being set: length rules here; the common-password list is checked on the server. */
export function newPasswordField(label = 'Password') {
  return text(label, PASSWORD_MAX, blankMessage(label))
    .min(1, blankMessage(label))
    .min(PASSWORD_MIN, messageText('auth:errors.tooShort', { label, count: PASSWORD_MIN }));
}

export const emailField = (label = 'Email') =>
  requiredString(label, 254)
    .toLowerCase()
    .pipe(z.email({ error: messageText('auth:errors.email') }));

export const usernameField = (label = 'Username') =>
  requiredString(label, USERNAME_MAX)
    .min(USERNAME_MIN, messageText('auth:errors.tooShort', { label, count: USERNAME_MIN }))
    .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, messageText('auth:errors.usernameChars'));

export const dateOfBirthField = (label = 'Date of birth') =>
  requiredString(label, 10)
    .regex(/^\d{4}-\d{2}-\d{2}$/, messageText('auth:errors.dateFormat'))
    .refine((v) => isCalendarDate(v) && v >= FIRST_DATE, {
      error: messageText('auth:errors.dateInvalid', { label }),
      abort: true,
    })
    .refine((v) => ageOn(v, new Date()) >= MIN_AGE, {
      error: messageText('auth:errors.tooYoung', { age: MIN_AGE }),
    });

export const RegisterBody = z.strictObject({
  email: emailField(),
  username: usernameField(),
  password: newPasswordField(),
  date_of_birth: dateOfBirthField(),
  terms: z.literal(true, { error: () => messageText('auth:errors.terms') }),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.strictObject({
  /** Email address or username. */
  login: requiredString('Login', 254),
  password: passwordField('Password'),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** The secret part of a link or a PIN reference: base64url characters only. */
const linkSecret = (label: string) =>
  requiredString(label, 200).regex(/^[A-Za-z0-9_.-]+$/, messageText('validation.linkInvalid'));

export const PinField = requiredString('PIN', PIN_LENGTH).regex(
  new RegExp(`^\\d{${PIN_LENGTH}}$`),
  messageText('auth:errors.pin'),
);

/**
 * /verify/{type}/{target}: the browser route posts its two segments. `email` links come from the
 * mails (target = "<token id>.<secret>"); `pin` is /verify/pin/{hash} with the 6 digits the user typed.
 */
export const VerifyBody = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('email'), target: linkSecret('Target') }),
  z.strictObject({ type: z.literal('pin'), target: linkSecret('Target'), pin: PinField }),
]);
export type VerifyBody = z.infer<typeof VerifyBody>;

export const ForgotPasswordBody = z.strictObject({ email: emailField() });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

const tokenId = coercedId(messageText('validation.linkInvalid'));

/** /recover/{id}/{hash}: the link of the forgot-password mail. */
export const RecoverBody = z.strictObject({ id: tokenId, hash: linkSecret('Hash') });
export type RecoverBody = z.infer<typeof RecoverBody>;

export const ResetPasswordBody = z.strictObject({
  id: tokenId,
  hash: linkSecret('Hash'),
  password: newPasswordField(),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const SetNewPasswordBody = z.strictObject({
  current_password: passwordField('Current password'),
  password: newPasswordField('New password'),
});
export type SetNewPasswordBody = z.infer<typeof SetNewPasswordBody>;

export const ConnectBody = z.strictObject({
  login: requiredString('Login', 254),
  password: passwordField('Password'),
});
export type ConnectBody = z.infer<typeof ConnectBody>;

export const SwitchBody = z.strictObject({
  user_id: coercedId(blankMessage('User')),
});
export type SwitchBody = z.infer<typeof SwitchBody>;

// ---------------------------------------------------------------- answers

export const VERIFY_STATUSES = ['none', 'pending', 'verified', 'declined'] as const;

/** POST /app/getData/{x}, and `data` of login, register and switch. */
export const CurrentUser = z.object({
  user_id: z.number(),
  username: z.string(),
  role: z.enum(['advertiser', 'admin']),
  language: z.string(),
  complete: z.boolean(),
  verify: z.enum(VERIFY_STATUSES),
  email_verified: z.boolean(),
  mobile_verified: z.boolean(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/** Login, register and switch: the user, and where the browser goes next. */
export const SessionResponse = z.object({ data: CurrentUser, path: z.string() });
export type SessionResponse = z.infer<typeof SessionResponse>;

/** Logout (spec section 4): the URL the browser is sent to. */
export const LogoutResponse = z.object({ data: z.string() });
export type LogoutResponse = z.infer<typeof LogoutResponse>;

export const LinkedAccount = z.object({
  user_id: z.number(),
  username: z.string(),
  screen_name: z.string().nullable(),
});
export type LinkedAccount = z.infer<typeof LinkedAccount>;
export const LinksResponse = z.object({ data: z.array(LinkedAccount) });
export type LinksResponse = z.infer<typeof LinksResponse>;

/** POST /recover: the link still works (an invalid one answers 422). */
export const RecoverResponse = z.object({ data: z.object({ valid: z.literal(true), expires_at: z.string() }) });
export type RecoverResponse = z.infer<typeof RecoverResponse>;

/** The answers of the calls that end in a notification (verify, resend, forgot, reset, password...). */
export const NotificationResponse = NotificationBody;

/**
 * The error answers of the auth and account calls (spec section 8), built like every route's
 * (route-answers.ts): what any state-changing call may answer before its handler (403, 413, 415, 422), and
 * 401, 404 and 429 of the calls themselves; 503 where their limits cannot be counted (Redis unreachable:
 * they refuse rather than let guesses through, decision 1010).
 */
export const AUTH_ERRORS = { ...WRITE_ERRORS, ...errorAnswers(401, 404, 429, 503) };
