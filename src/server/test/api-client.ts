// One way for tests and benchmarks to call the API, in process (app.inject) or over real sockets (fetch
// against a listening server, another process included), with a signed-in session's cookies and CSRF header.
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Session } from './factories';

export interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  /** The body as JSON (throws when it is none). */
  json<T = unknown>(): T;
}

export interface ApiRequest {
  session?: Session | null;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with `headers` (a signed webhook, a form). */
  raw?: string;
  headers?: Record<string, string>;
}

export type ApiClient = (method: 'GET' | 'POST', url: string, request?: ApiRequest) => Promise<ApiAnswer>;

function headersOf(r: ApiRequest): Record<string, string> {
  const headers: Record<string, string> = { ...r.headers };
  if (r.session) {
    headers.cookie = `sid=${r.session.cookies.sid}; csrf=${r.session.cookies.csrf}`;
    Object.assign(headers, r.session.headers);
  }
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

const answer = (status: number, headers: ApiAnswer['headers'], body: string): ApiAnswer => ({
  status,
  headers,
  body,
  json: <T>() => JSON.parse(body) as T,
});

/** Requests through app.inject: no socket, the same process. */
export function injectClient(app: FastifyInstance): ApiClient {
  return async (method, url, r = {}) => {
    const res = await app.inject({
      method,
      url,
      headers: headersOf(r),
      ...(r.body !== undefined ? { payload: JSON.stringify(r.body) } : r.raw !== undefined ? { payload: r.raw } : {}),
    });
    return answer(res.statusCode, res.headers, res.body);
  };
}

/**
 * Requests over HTTP to `base` (http://127.0.0.1:port), at most `connections` at once (more wait for one,
 * as a browser's do), each on a connection of its own: a kept-alive socket could be reused in the instant
 * the server closes it, which a busy event loop makes likely. Redirects are answered, not followed.
 */
export function httpClient(base: string, connections = 50): ApiClient & { close(): void } {
  const agent = new http.Agent({ keepAlive: false, maxSockets: connections });
  const client: ApiClient = (method, url, r = {}) =>
    new Promise<ApiAnswer>((resolve, reject) => {
      const body = r.body !== undefined ? JSON.stringify(r.body) : r.raw;
      const req = http.request(new URL(url, base), { method, agent, headers: headersOf(r) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(answer(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  return Object.assign(client, { close: () => agent.destroy() });
}
