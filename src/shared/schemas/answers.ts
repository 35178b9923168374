// The answers a call gives besides its own (spec section 8), for the routes' `response` maps: each
// status with the envelope the error handler sends (src/server/plugins/error-handler.ts), so that the
// OpenAPI document (/api/docs.json) names them and the serializer drops what they do not name.
import { z } from 'zod';
import { MessageBody, ValidationErrorBody } from '../api/errors';

/**
 * 401 not signed in, 403 refused (another site, a signed-in call without its CSRF token, not allowed),
 * 404 not found (a malformed path parameter too), 413 too large, 415 not JSON, 422 input that does not
 * read (with the messages per field), 429 too many calls.
 */
export type ErrorStatus = 401 | 403 | 404 | 413 | 415 | 422 | 429;
type Envelope<S extends ErrorStatus> = S extends 422 ? typeof ValidationErrorBody : typeof MessageBody;

/** The error envelopes of these statuses: `{message, errors}` for 422, `{message}` for the others. */
export function errorAnswers<const S extends readonly ErrorStatus[]>(
  ...statuses: S
): { [K in S[number]]: Envelope<K> } {
  return Object.fromEntries(statuses.map((s) => [s, s === 422 ? ValidationErrorBody : MessageBody])) as {
    [K in S[number]]: Envelope<K>;
  };
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
