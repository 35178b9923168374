// One error module with stable codes. Services throw these; the error handler turns them into the
// spec's bodies (section 8). Anything else is a bug and answers 500 without details.
import { VALIDATION_MESSAGE } from '#shared/api/errors.ts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** For 429: seconds until a retry can succeed (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class ValidationError extends AppError {
  constructor(
    readonly errors: Record<string, string[]>,
    message = VALIDATION_MESSAGE,
  ) {
    super(422, 'validation', message);
  }

  static field(field: string, message: string) {
    return new ValidationError({ [field]: [message] });
  }
}

export const unauthenticated = (message = 'Unauthenticated.') => new AppError(401, 'unauthenticated', message);
export const forbidden = (message = 'This action is unauthorized.') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const tooManyRequests = (message = 'Too many attempts. Please try again later.', retryAfterSeconds?: number) =>
  new AppError(429, 'rate_limited', message, retryAfterSeconds);
