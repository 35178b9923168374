// GET /api/docs.json: an OpenAPI document that lists every /api route the app registered (its route table,
// so a new route joins by itself), with the Zod schemas the routes validate with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';
import { routeTable } from './route-table';

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ name: string }> }>>;
}

interface Document {
  paths: Record<
    string,
    Record<
      string,
      { responses?: Record<string, { description?: string; content?: Record<string, { schema?: object }> }> }
    >
  >;
}

/** The error envelopes of spec section 8 as the document writes them (#shared/api/errors.ts). */
const MESSAGE_ENVELOPE = {
  type: 'object',
  properties: { message: { type: 'string' } },
  required: ['message'],
  additionalProperties: false,
};
const VALIDATION_ENVELOPE = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    errors: {
      type: 'object',
      propertyNames: { type: 'string' },
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
  required: ['message', 'errors'],
  additionalProperties: false,
};

/** Fastify's /:id as OpenAPI's /{id}. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('API document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('lists every /api route with its method, and nothing that is not the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const doc = res.json<OpenApi>();
    expect(doc.openapi).toMatch(/^3\./);
    const api = routeTable(t.app).filter((r) => r.url.startsWith('/api/') && r.url !== '/api/docs.json');
    expect(api.length).toBeGreaterThan(50);
    const missing = api.filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]);
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    for (const p of Object.keys(doc.paths)) expect(p.startsWith('/api/')).toBe(true);
    expect(doc.paths['/api/docs.json']).toBeUndefined();
  });

  it('carries the schemas the routes validate with (a body, a path parameter)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs.json' })).json<OpenApi>();
    const login = doc.paths['/api/auth/login']?.post;
    expect(login?.requestBody).toBeTruthy();
    expect(JSON.stringify(login?.requestBody)).toContain('password');
    const profile = Object.entries(doc.paths).find(([p]) => /\{[a-z_]*id\}/i.test(p));
    expect(profile, 'a route with an id in its path').toBeTruthy();
    const [, methods] = profile!;
    const op = Object.values(methods)[0];
    expect(op.parameters?.some((p) => /id/i.test(p.name))).toBe(true);
  });

  it('shows the three downloads as files of their type, and the error envelopes they may send instead', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs.json' })).json<{
      paths: Record<
        string,
        Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>
      >;
    }>();
    // The video streams from the store: a byte range (206), a revalidation (304) and a range it cannot serve (416)
    // are declared beside the file (decision 1000).
    const partial = ['206', '304', '416'];
    const downloads: Array<[string, string, object, string[], string[]?]> = [
      [
        '/api/edit/videoFile/{id}',
        'video/mp4',
        { type: 'string', format: 'binary' },
        ['401', '403', '404', '414', '422', '503'],
        partial,
      ],
      [
        '/api/admin/photo-id/{requestId}',
        'image/jpeg',
        { type: 'string', format: 'binary' },
        ['401', '403', '404', '414', '422', '503'],
      ],
      ['/api/payment/getTransactionsCsv', 'text/csv', { type: 'string' }, ['401', '403', '422', '503']],
    ];
    for (const [path, type, body, errors, others = []] of downloads) {
      const responses = doc.paths[path]?.get?.responses ?? {};
      expect(Object.keys(responses).sort(), path).toEqual(['200', ...others, ...errors].sort());
      expect(Object.keys(responses['200'].content ?? {}), path).toEqual([type]);
      expect(responses['200'].content?.[type].schema, path).toEqual(body);
      for (const status of errors)
        expect(JSON.stringify(responses[status].content?.['application/json']?.schema), `${path} ${status}`).toContain(
          'message',
        );
    }
  });

  it('declares on every operation the errors it can answer, each as the shared envelope (issue 21 item 5)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs.json' })).json<Document>();
    const operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops).map(([m, op]) => [`${m.toUpperCase()} ${p}`, op.responses ?? {}] as const),
    );
    expect(operations.length).toBeGreaterThan(90);
    const withoutErrors = operations.filter(([, r]) => !Object.keys(r).some((s) => Number(s) >= 400));
    expect(withoutErrors.map(([name]) => name)).toEqual([]);
    for (const [name, responses] of operations) {
      expect(
        Object.keys(responses).some((s) => /^2/.test(s)),
        `${name} declares its success`,
      ).toBe(true);
      for (const [status, answer] of Object.entries(responses).filter(([s]) => Number(s) >= 400)) {
        // A range past the end of a streamed file is answered without a body (decision 1000).
        if (status === '416' && !answer.content) continue;
        const schema = answer.content?.['application/json']?.schema;
        // toEqual passes over the undefined description: the status's meaning, also the answer's.
        expect({ ...schema, description: undefined }, `${name} ${status}`).toEqual(
          status === '422' ? VALIDATION_ENVELOPE : MESSAGE_ENVELOPE,
        );
      }
    }
  });

  it('derives them from what the route is: guards, path values, bodies, limits, parsers', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs.json' })).json<Document>();
    const statuses = (path: string, method: string) =>
      Object.keys(doc.paths[path]?.[method]?.responses ?? {}).filter((s) => Number(s) >= 400);
    // Public, no path value, no body: only a card number in the query string is refused (0810); and like
    // every call that reads the database, 503 while it is out of reach (decision 1017).
    expect(statuses('/api/app/config', 'get')).toEqual(['422', '503']);
    // Liveness reads no database: never 503 for one.
    expect(statuses('/api/health/live', 'get')).not.toContain('503');
    // signedIn: 401; a body: 403 (another site, no CSRF token), 413, 415, 422. Each says what it means.
    expect(statuses('/api/app/ping', 'post')).toEqual(['401', '403', '413', '415', '422', '503']);
    expect(doc.paths['/api/app/ping'].post.responses?.['401'].description).toMatch(/not signed in/i);
    // may(): 401, 403 and 404; a path value: 404 and 414.
    expect(statuses('/api/edit/getGallery/{id}', 'get')).toEqual(['401', '403', '404', '414', '422', '503']);
    // adminOnly for the whole plugin (guardEvery), and a 404 the handler declares itself.
    expect(statuses('/api/admin/getOverview', 'get')).toEqual(['401', '403', '422', '503']);
    expect(statuses('/api/admin/flag', 'post')).toEqual(['401', '403', '404', '413', '415', '422', '503']);
    // A rate limit: 429.
    expect(statuses('/api/directory/impressions', 'post')).toContain('429');
    expect(statuses('/api/payment/makePayment', 'post')).toEqual(['401', '403', '413', '415', '422', '429', '503']);
    // The webhooks read every body as bytes (no 415, no 422) and answer their signature's 400 and 401.
    expect(statuses('/api/payment/webhook/{provider}', 'post')).toEqual([
      '400',
      '401',
      '403',
      '404',
      '413',
      '414',
      '503',
    ]);
  });
});
