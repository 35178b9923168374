// Time limits and connection caps of the HTTP server (issue 8, item 6; README "HTTP limits"): a client
// that opens connections and sends nothing, or a body a byte at a time, must not hold the server's
// sockets. Node enforces the header, request and idle limits; a JSON body has its own shorter limit
// here (uploads keep the whole request limit); connections are capped in all and per address.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { msg } from '#shared/api/messages.ts';
import { translateKey } from '../lib/message-i18n';

export interface HttpLimits {
  /** A connection with no traffic at all is closed after this. */
  idleMs: number;
  /** A kept-alive connection waits this long for its next request. */
  keepAliveMs: number;
  /** The request line and headers must arrive within this. */
  headersMs: number;
  /** The whole request, body included (uploads of up to 200 MB use it). */
  requestMs: number;
  /** The body of a request that is not an upload (JSON: at most 1 MB). */
  bodyMs: number;
  /** Open connections in all; Node refuses more. */
  maxConnections: number;
  /** Open connections from one address (not applied behind a trusted proxy, whose address they share). */
  perAddress: number;
  /** How often Node checks the header and request limits. */
  checkEveryMs: number;
}

export const HTTP_LIMITS: HttpLimits = {
  idleMs: 30_000,
  keepAliveMs: 5_000,
  headersMs: 10_000,
  requestMs: 300_000,
  bodyMs: 15_000,
  maxConnections: 2_000,
  perAddress: 100,
  checkEveryMs: 1_000,
};

/** Options for Fastify() (and through it http.createServer). */
export function serverOptions(l: HttpLimits) {
  return {
    connectionTimeout: l.idleMs,
    keepAliveTimeout: l.keepAliveMs,
    requestTimeout: l.requestMs,
    http: { headersTimeout: l.headersMs, requestTimeout: l.requestMs, connectionsCheckingInterval: l.checkEveryMs },
  };
}

// Written to the socket before any request is read: English, the one language there is no doubt about.
const tooSlow = () => JSON.stringify({ message: translateKey(msg('errors.tooSlow'), 'en') });

export function applyHttpLimits(app: FastifyInstance, l: HttpLimits, behindProxy: boolean): void {
  app.server.maxConnections = l.maxConnections;
  if (!behindProxy) {
    const open = new Map<string, number>();
    app.server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const count = (open.get(address) ?? 0) + 1;
      if (count > l.perAddress) {
        socket.destroy();
        return;
      }
      open.set(address, count);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    });
  }
  // A body that is not an upload must arrive within bodyMs, or the request ends with 408.
  app.addHook('onRequest', async (request, reply) => {
    const type = request.headers['content-type'] ?? '';
    const hasBody =
      Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody || type.startsWith('multipart/') || request.raw.complete) return;
    const timer = setTimeout(() => {
      if (request.raw.complete) return;
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(408, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(tooSlow()),
          connection: 'close',
        });
        reply.raw.end(tooSlow());
      }
      request.raw.destroy();
    }, l.bodyMs);
    timer.unref();
    request.raw.once('end', () => clearTimeout(timer));
    reply.raw.once('close', () => clearTimeout(timer));
  });
}
