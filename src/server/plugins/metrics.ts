// Request ids and the metrics endpoint (issue 45 item 3, decision 1019).
// - Every request has an id: the proxy's X-Request-Id when the app sits behind a trusted proxy
//   (TRUST_PROXY) and the id reads as one, else a new UUID. Fastify writes it on each log line of the
//   request (reqId) and every answer carries it back as X-Request-Id, so a visitor's report, the proxy's
//   log and ours meet on one value.
// - Every answer is timed into the request histogram by route pattern, method and status.
// - GET /metrics answers Prometheus's text format to `Authorization: Bearer <METRICS_TOKEN>`; without the
//   setting there is no such route (404, like any unknown address): metrics are never public.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { msg } from '#shared/api/messages.ts';
import type { AppContext } from '../context';
import { hasCardNumber } from '../lib/card-numbers';
import { metricsOf } from '../lib/metrics';

const PROXY_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Fastify's genReqId: the trusted proxy's id when it reads as one, else a new UUID. An id that holds a card
 * number is none (a proxy that passes a client's header on would have it on every log line; 0810).
 */
export function requestIdGenerator(behindProxy: boolean) {
  return (req: IncomingMessage): string => {
    const given = req.headers['x-request-id'];
    if (behindProxy && typeof given === 'string' && PROXY_ID.test(given) && !hasCardNumber(given)) return given;
    return crypto.randomUUID();
  };
}

/** Bearer token compared in constant time. */
function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && crypto.timingSafeEqual(given, wanted);
}

export function registerMetrics(app: FastifyInstance, ctx: AppContext): void {
  const metrics = metricsOf(ctx);
  app.addHook('onSend', async (request, reply, payload) => {
    void reply.header('x-request-id', request.id);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.requests.observe(
      { route: request.routeOptions.url ?? '(unmatched)', method: request.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  const token = ctx.env.METRICS_TOKEN;
  if (!token) return;
  app.get('/metrics', async (request, reply) => {
    if (!tokenMatches(request.headers.authorization, token))
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ message: msg('errors.unauthenticated') });
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
