// The single error handler: spec section 8 bodies, never a stack trace, never a 5xx for client input.
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { VALIDATION_MESSAGE } from '#shared/api/errors.ts';
import { msg, parseMessageText, type Message } from '#shared/api/messages.ts';
import { humanize } from '#shared/api/zod-messages.ts';
import { CSRF_COOKIE } from '#shared/constants.ts';
import { connectionLost, pgErrorCode } from '../db/client';
import { AppError, ValidationError } from '../lib/errors';
import { callLanguage, translateKey } from '../lib/message-i18n';

/**
 * The 422 of a request a route's schema refused. Every issue's message is a Message written as a string
 * (src/shared/api/zod-messages.ts, messageText); anything else gets the generic "{label} is not valid."
 */
function validationFromZod(issues: Array<{ instancePath: string; message?: string; keyword: string }>) {
  const errors: Record<string, Message[]> = {};
  for (const issue of issues) {
    const parts = issue.instancePath.split('/').filter(Boolean);
    const field = parts.join('.') || 'body';
    const message =
      parseMessageText(issue.message ?? '') ?? msg('validation.invalid', { label: humanize(parts.at(-1) ?? field) });
    const list = (errors[field] ??= []);
    if (!list.some((m) => JSON.stringify(m) === JSON.stringify(message))) list.push(message);
  }
  return new ValidationError(errors);
}

/** What a 503 for a database out of reach asks the caller to wait: a restart or failover takes seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Serialisation failure, deadlock: the transaction was rolled back whole. */
const TRANSIENT = new Set(['40001', '40P01']);

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      // A malformed path parameter names nothing that exists.
      if (err.validationContext === 'params') return reply.code(404).send({ message: msg('errors.notFound') });
      const v = validationFromZod(err.validation);
      return reply.code(422).send({ message: v.text, errors: v.errors });
    }
    if (err instanceof ValidationError) {
      return reply.code(422).send({ message: err.text, errors: err.errors });
    }
    if (err instanceof AppError) {
      if (err.statusCode === 401) {
        // The session is gone: so is the SPA's sign that there is one (no more user-data calls).
        void reply.clearCookie?.('sid', { path: '/' });
        void reply.clearCookie?.(CSRF_COOKIE, { path: '/' });
      }
      if (err.retryAfterSeconds) void reply.header('retry-after', String(err.retryAfterSeconds));
      return reply.code(err.statusCode).send({ message: err.text });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.code(429).send({ message: msg('errors.tooManyAttempts') });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, wrong content type, body too large...
      const message =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? msg('auth.unsupportedType')
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? msg('errors.requestTooLarge')
            : status === 400
              ? msg('errors.unreadable')
              : msg('errors.invalidRequest');
      if (status === 400) return reply.code(422).send({ message: VALIDATION_MESSAGE, errors: { body: [message] } });
      return reply.code(status).send({ message });
    }
    if (TRANSIENT.has(pgErrorCode(err) ?? '')) {
      // A deadlock or serialisation failure wrote nothing and may pass next time (decision 0401).
      request.log.warn({ err }, 'transient database conflict');
      return reply
        .code(503)
        .header('retry-after', '1')
        .send({ message: msg('errors.busy') });
    }
    if (connectionLost(err)) {
      // The database could not be reached, or the connection was lost under the request (decision 1017): a
      // transaction that lost it was not committed; the pool connects anew for the next request.
      request.log.warn({ err }, 'database out of reach');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: msg('errors.busy') });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: msg('errors.serverError') });
  });
}

/** Without the SPA (API tests) every unknown path is a plain 404; with it, app.ts answers client routes. */
export function plainNotFound(_request: FastifyRequest, reply: FastifyReply) {
  void reply.code(404).send({ message: msg('errors.notFound') });
}

/**
 * Errors Fastify raises before any route or hook (a path that is not valid percent-encoding, a path
 * parameter longer than maxParamLength): by default a body of its own that repeats the address. Here
 * the spec's envelope, and never the address (issue 8, item 12).
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // Raised before the hooks that translate bodies: translated here.
  const say = (key: string) => ({ message: translateKey(msg(key), callLanguage(request)) });
  if (err.code === 'FST_ERR_BAD_URL') void reply.code(404).send(say('errors.notFound'));
  else if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') void reply.code(414).send(say('errors.addressTooLong'));
  else void reply.code(500).send(say('errors.serverError'));
}

/** Requests Node's HTTP parser refuses (malformed, headers too large, too slow), in the envelope too. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, key] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'errors.tooSlow']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'errors.headersTooLarge']
        : [400, 'Bad Request', 'errors.unreadable'];
  // Node's parser refused the request before anything of it was read: no language to answer in but English.
  const body = JSON.stringify({ message: translateKey(msg(key), 'en') });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
