// One error module with stable codes. Services throw these; the error handler turns them into the
// spec's bodies (section 8). Anything else is a bug and answers 500 without details.
import { VALIDATION_MESSAGE } from '#shared/api/errors.ts';
import { msg, type Message } from '#shared/api/messages.ts';

/**
 * What an error says: a Message (key of the `messages` catalogue and its values, translated at the
 * edge in the caller's language) or, until every call site is converted, an English sentence.
 */
export type Text = string | Message;

const asString = (text: Text) => (typeof text === 'string' ? text : text.key);

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    /** What the body's `message` says. */
    readonly text: Text,
    /** For 429: seconds until a retry can succeed (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(asString(text));
    this.name = 'AppError';
  }
}

export class ValidationError extends AppError {
  constructor(
    readonly errors: Record<string, Text[]>,
    message: Text = VALIDATION_MESSAGE,
  ) {
    super(422, 'validation', message);
  }

  static field(field: string, message: Text) {
    return new ValidationError({ [field]: [message] });
  }
}

export const unauthenticated = (message: Text = msg('errors.unauthenticated')) =>
  new AppError(401, 'unauthenticated', message);
export const forbidden = (message: Text = msg('errors.forbidden')) => new AppError(403, 'forbidden', message);
export const notFound = (message: Text = msg('errors.notFound')) => new AppError(404, 'not_found', message);
export const conflict = (message: Text) => new AppError(409, 'conflict', message);
export const tooManyRequests = (message: Text = msg('errors.tooManyAttempts'), retryAfterSeconds?: number) =>
  new AppError(429, 'rate_limited', message, retryAfterSeconds);
