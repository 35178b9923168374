// The tests' one way to call the app in process: `as(t, session).post(url, body)`, after Outline's
// TestServer and fastify/demo's injectWithLogin. The answer is app.inject's own, so a test reads
// statusCode, json(), headers and cookies as before. Benchmarks and the money mix, which also speak over
// real sockets, use api-client.ts instead.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Session } from './factories';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** What else a request carries: headers beside the session's, the client's address, cookies of its own. */
export interface RequestExtras {
  headers?: Record<string, string>;
  remoteAddress?: string;
  cookies?: Record<string, string>;
}

export interface Requester {
  get(url: string, extras?: RequestExtras): Promise<LightMyRequestResponse>;
  /** `body` goes as JSON when it is an object, as it is when a string or Buffer; none when undefined. */
  post(url: string, body?: InjectOptions['payload'], extras?: RequestExtras): Promise<LightMyRequestResponse>;
  put(url: string, body?: InjectOptions['payload'], extras?: RequestExtras): Promise<LightMyRequestResponse>;
  delete(url: string, body?: InjectOptions['payload'], extras?: RequestExtras): Promise<LightMyRequestResponse>;
  request(
    method: Method,
    url: string,
    body?: InjectOptions['payload'],
    extras?: RequestExtras,
  ): Promise<LightMyRequestResponse>;
}

/**
 * Requests to `t`'s app (a TestApp or the Fastify instance itself) as `session` (a signed-in browser's
 * cookies and CSRF header), or as a visitor without one. `defaults` go with every request; a request's
 * own extras add to them (headers and cookies merged, the request's winning).
 */
export function as(
  t: { app: FastifyInstance } | FastifyInstance,
  session?: Session | null,
  defaults: RequestExtras = {},
): Requester {
  const request: Requester['request'] = (method, url, body, extras = {}) => {
    const app = 'inject' in t ? t : t.app;
    const headers = { ...session?.headers, ...defaults.headers, ...extras.headers };
    const cookies = { ...session?.cookies, ...defaults.cookies, ...extras.cookies };
    const remoteAddress = extras.remoteAddress ?? defaults.remoteAddress;
    return app.inject({
      method,
      url,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(Object.keys(cookies).length ? { cookies } : {}),
      ...(remoteAddress !== undefined ? { remoteAddress } : {}),
      ...(body !== undefined ? { payload: body } : {}),
    });
  };
  return {
    request,
    get: (url, extras) => request('GET', url, undefined, extras),
    post: (url, body, extras) => request('POST', url, body, extras),
    put: (url, body, extras) => request('PUT', url, body, extras),
    delete: (url, body, extras) => request('DELETE', url, body, extras),
  };
}
