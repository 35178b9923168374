// What a route returns where its texts are not yet what goes out. A notification leaves a service with
// its texts as Messages (keys of the messages catalogue, #shared/api/messages.ts); app.ts's
// preSerialization hook (translateBody, ./message-i18n.ts) turns them into the caller's sentences, and
// only then does the route's response schema (NotificationBody: strings) check the body and drop what it
// does not name. `sent` says so to the type checker: a type assertion only, in this one place.
import type { FastifyReply, RouteOptions } from 'fastify';
import type { NotificationBody, NotificationPayload } from '#shared/api/errors.ts';
import { errorAnswers, type ErrorStatus } from '#shared/schemas/route-answers.ts';

export const sent = (answer: NotificationPayload): NotificationBody => answer as NotificationBody;

/**
 * Sends JSON made beforehand (built once, or kept in a cache) as it is: the route's serializer sees only
 * objects, so whoever made the bytes encoded them by the route's response schema (`z.encode`), as the
 * serializer would have. Takes the plain reply type, whose send accepts bytes.
 */
export function sendEncoded(reply: FastifyReply, json: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

const marked = new WeakMap<object, readonly ErrorStatus[]>();

/**
 * Says which error statuses a hook can answer (a guard: 401, 403, 404...), where the hook is written;
 * plugins/api-docs.ts adds them to every route that runs the hook, so the OpenAPI document names them.
 */
export function answering<F extends (...args: never[]) => unknown>(hook: F, ...statuses: ErrorStatus[]): F {
  marked.set(hook, statuses);
  return hook;
}

/** The statuses `answering` gave this hook; none for any other value. */
export const answersOf = (hook: unknown): readonly ErrorStatus[] =>
  (typeof hook === 'function' && marked.get(hook)) || [];

/** Adds the envelopes of these statuses to a route's response map (onRoute), keeping what it declares. */
export function declareAnswers(route: RouteOptions, statuses: readonly ErrorStatus[]): void {
  const schema = (route.schema ??= {});
  const response = (schema.response ??= {}) as Record<string, unknown>;
  for (const [status, body] of Object.entries(errorAnswers(...statuses))) response[status] ??= body;
}
