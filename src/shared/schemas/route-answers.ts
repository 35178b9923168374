// The answers a call gives besides its own (spec section 8), for the routes' `response` maps: each
// status with the envelope the error handler sends (src/server/plugins/error-handler.ts), so that the
// OpenAPI document (/api/docs.json) names them and the serializer drops what they do not name.
import { z } from 'zod';
import { MessageBody, ValidationErrorBody } from '../api/errors';

/**
 * 400 a provider's notification that does not read, 401 not signed in (or a notification's signature
 * missing), 403 refused (another site, a signed-in call without its CSRF token, not allowed), 404 not
 * found (a malformed path parameter too), 413 too large, 414 a path parameter over the length limit, 415
 * not JSON, 422 input that does not read (with the messages per field), 429 too many calls, 503 busy (a
 * database conflict still failing after its retries, the database or a payment provider out of reach).
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 413 | 414 | 415 | 422 | 429 | 503;
type Envelope<S extends ErrorStatus> = S extends 422 ? typeof ValidationErrorBody : typeof MessageBody;

/** What each status means, as the OpenAPI document says it (the response's description). */
const MEANING: Record<ErrorStatus, string> = {
  400: 'The notification does not read.',
  401: 'Not signed in (or the session ended; a notification without a valid signature).',
  403: 'Refused: sent from another site, a signed-in call without its CSRF token, or not allowed to the caller.',
  404: 'Nothing at this address, or a path value that names nothing (malformed ids too).',
  413: 'The body is over the size limit.',
  414: 'A path value is over the length limit.',
  415: 'The body is not of a type this call reads.',
  422: 'The input does not read: a message and the messages per field (a card number anywhere too).',
  429: 'Too many calls: try again later (Retry-After when known).',
  503: 'Busy, the database or a provider out of reach: try again (Retry-After).',
};

/** The shared envelopes (api/errors.ts), each with its status's meaning. */
const ENVELOPES = Object.fromEntries(
  Object.entries(MEANING).map(([s, meaning]) => [
    s,
    (s === '422' ? ValidationErrorBody : MessageBody).describe(meaning),
  ]),
) as Record<ErrorStatus, typeof MessageBody | typeof ValidationErrorBody>;

/** The error envelopes of these statuses: `{message, errors}` for 422, `{message}` for the others. */
export function errorAnswers<const S extends readonly ErrorStatus[]>(
  ...statuses: S
): { [K in S[number]]: Envelope<K> } {
  return Object.fromEntries(statuses.map((s) => [s, ENVELOPES[s]])) as { [K in S[number]]: Envelope<K> };
}

/**
 * What any state-changing call may answer before its handler runs: 403 (another site, or a signed-in
 * call without its CSRF token), 413 (a body over the limit), 415 (a body that is not JSON) and 422 (a body
 * that does not read).
 */
export const WRITE_ERRORS = errorAnswers(403, 413, 415, 422);

/** A file's bytes as the OpenAPI document says them: a binary string. */
export const Bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array).meta({ type: 'string', format: 'binary' });

/**
 * A 200 that is a file, not JSON (a video, a photo ID, a CSV download): its media type and its body,
 * `Bytes` or `z.string()`. The route sends a Buffer or a string under that type, which Fastify passes
 * on as it is: nothing is serialized, the schema documents.
 */
export function fileAnswer<S extends z.ZodType>(mediaType: string, description: string, body: S) {
  return { description, content: { [mediaType]: { schema: body } } };
}

/**
 * 304 to a GET whose If-None-Match names the answer's current ETag: no body. fastify-type-provider-zod
 * writes `undefined` as `{type: 'null'}`, which @fastify/swagger turns into a response without content;
 * nothing is serialized for it (the route sends nothing).
 */
export const NotModified = z.undefined().describe('Not modified: the If-None-Match header named the current ETag.');
