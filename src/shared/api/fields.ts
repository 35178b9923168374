// Field builders that carry the spec's messages, so the browser form and the server body agree. Every
// schema builds its ids and texts from these: an id above PostgreSQL's integer range or a text with a
// NUL byte would otherwise reach the database and fail there with a 500 (issue 8).
import { z } from 'zod';
import { blankMessage } from './errors';
import './zod-messages.ts';
import { messageText } from './messages';

/** The largest PostgreSQL `integer`, the type of every id column. */
export const MAX_ID = 2 ** 31 - 1;

/** A row id in a JSON body. `message` replaces the type error (a missing or non-numeric id). */
export const id = (message?: string) =>
  z
    .number(message ? { error: () => message } : undefined)
    .int()
    .positive()
    .max(MAX_ID);

/** A row id written as text: a path segment, a query parameter (or a body that may send "12"). */
export const coercedId = (message?: string) =>
  z.coerce
    .number(message ? { error: () => message } : undefined)
    .int()
    .positive()
    .max(MAX_ID);

/** Numeric id in a path parameter. */
export const IdParam = z.object({ id: coercedId() });

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL. Nobody types them;
 * PostgreSQL cannot store NUL in text at all.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- the same class, as a whole-string pattern (JSON Schema `pattern`)
const WITHOUT_CONTROL_CHARACTERS = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;

export const controlCharactersMessage = (label: string) => messageText('validation.controlCharacters', { label });

/** Adds the control-character rule to a string schema (for fields with wording of their own). */
export const withoutControlCharacters = (schema: z.ZodString, label: string) =>
  schema.regex(WITHOUT_CONTROL_CHARACTERS, controlCharactersMessage(label));

const tooLong = (label: string, max: number) => messageText('validation.maxLength', { label, n: max });

/** Any text field: a string without control characters, at most `max` long, kept as sent. */
export function text(label: string, max = 1000, typeError = messageText('validation.text', { label })) {
  return withoutControlCharacters(z.string({ error: () => typeError }), label).max(max, tooLong(label, max));
}

/** A required, trimmed text: missing, null or blank gives "{label} can't be blank!". */
export function requiredString(label: string, max = 1000) {
  return withoutControlCharacters(z.string({ error: () => blankMessage(label) }), label)
    .trim()
    .min(1, blankMessage(label))
    .max(max, tooLong(label, max));
}

export function optionalString(label: string, max = 1000) {
  return withoutControlCharacters(z.string({ error: () => messageText('validation.text', { label }) }), label)
    .trim()
    .max(max, tooLong(label, max))
    .optional();
}

/**
 * The first and last day any date of the API may name (issue 42 item 7): PostgreSQL stores neither a year
 * 0 nor, as a timestamp, the day after 294276-12-31, and a filter's "until" is read as the start of the
 * next day, so a bound is needed on both sides; nothing the site does lies outside these.
 */
export const FIRST_DATE = '1900-01-01';
export const LAST_DATE = '2999-12-31';

/** A calendar date written YYYY-MM-DD, between FIRST_DATE and LAST_DATE (a 422 with the range otherwise). */
export const isoDay = (message = messageText('validation.isoDate')) =>
  z.iso.date(message).refine((v) => v >= FIRST_DATE && v <= LAST_DATE, {
    message: messageText('validation.dateRange', { from: FIRST_DATE, until: LAST_DATE }),
  });
