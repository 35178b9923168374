// GET /api/docs.json: an OpenAPI document that lists every /api route the app registered (its route table,
// so a new route joins by itself), with the Zod schemas the routes validate with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';
import { routeTable } from './route-table';

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ name: string }> }>>;
}

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
      ['/api/edit/videoFile/{id}', 'video/mp4', { type: 'string', format: 'binary' }, ['401', '403', '404'], partial],
      ['/api/admin/photo-id/{requestId}', 'image/jpeg', { type: 'string', format: 'binary' }, ['401', '403', '404']],
      ['/api/payment/getTransactionsCsv', 'text/csv', { type: 'string' }, ['401', '403', '422']],
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
});
