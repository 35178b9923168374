// The single error handler: spec section 8 bodies, never a stack trace, never a 5xx for client input.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { blankMessage, VALIDATION_MESSAGE } from '#shared/api/errors.ts';
import { AppError, ValidationError } from '../lib/errors';

/** "screen_name" -> "Screen name" */
export function humanize(field: string): string {
  const s = field
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return s ? s[0].toUpperCase() + s.slice(1) : 'Value';
}

function validationFromZod(issues: Array<{ instancePath: string; message?: string; keyword: string }>) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const parts = issue.instancePath.split('/').filter(Boolean);
    const field = parts.join('.') || 'body';
    let message = issue.message ?? 'Invalid value.';
    // Zod's default for a missing field; replace it with the spec's wording.
    if (/received (undefined|null)/.test(message)) message = blankMessage(humanize(parts.at(-1) ?? field));
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return new ValidationError(errors);
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      // A malformed path parameter names nothing that exists.
      if (err.validationContext === 'params') return reply.code(404).send({ message: 'Not found.' });
      const v = validationFromZod(err.validation);
      return reply.code(422).send({ message: v.message, errors: v.errors });
    }
    if (err instanceof ValidationError) {
      return reply.code(422).send({ message: err.text, errors: err.errors });
    }
    if (err instanceof AppError) {
      if (err.statusCode === 401) void reply.clearCookie?.('sid', { path: '/' });
      if (err.retryAfterSeconds) void reply.header('retry-after', String(err.retryAfterSeconds));
      return reply.code(err.statusCode).send({ message: err.text });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.code(429).send({ message: 'Too many attempts. Please try again later.' });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, wrong content type, body too large...
      const message =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type.'
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'The request is too large.'
            : status === 400
              ? 'The request could not be read.'
              : err.message;
      if (status === 400) return reply.code(422).send({ message: VALIDATION_MESSAGE, errors: { body: [message] } });
      return reply.code(status).send({ message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}

/** Without the SPA (API tests) every unknown path is a plain 404; with it, app.ts answers client routes. */
export function plainNotFound(_request: FastifyRequest, reply: FastifyReply) {
  void reply.code(404).send({ message: 'Not found.' });
}
