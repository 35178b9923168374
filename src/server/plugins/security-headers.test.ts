// Decision 0721: helmet's headers are computed once; a page gets the page CSP with fresh nonces, an /api
// answer a static CSP that allows nothing to load and no frame.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGeo } from '../test/factories';
import { buildPagesApp, createTestApp, type TestApp } from '../test/helpers';
import { API_CSP, securityHeaders } from './security-headers';

let t: TestApp;
let pages: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  pages = await buildPagesApp(t, '<!doctype html><html><head><title>x</title></head><body></body></html>');
});
afterAll(async () => {
  await pages.close();
  await t.close();
});

const HELMET = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

describe('security headers', () => {
  it("an /api answer carries helmet's headers and the static API CSP, no nonce", async () => {
    for (const url of ['/api/health', '/api/directory/countries', '/api/no-such-route']) {
      const res = await pages.inject({ method: 'GET', url });
      expect(res.headers, url).toMatchObject(HELMET);
      expect(res.headers['content-security-policy'], url).toBe(API_CSP);
      expect(res.headers['cross-origin-embedder-policy'], url).toBeUndefined();
    }
  });

  it('a page carries the page CSP with its nonces', async () => {
    const page = await pages.inject({ method: 'GET', url: '/escorts/germany' });
    expect(page.headers).toMatchObject(HELMET);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/upgrade-insecure-requests/);
    const nonce = /script-src 'self' 'nonce-([0-9a-f]{32})'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect(page.body).toContain(`<meta name="csp-nonce" content="${nonce}">`);
  });

  it('a route outside /api gets two new random nonces for every answer, named in its CSP', async () => {
    const app = Fastify();
    securityHeaders(app, { helmet: { contentSecurityPolicy: { directives: { scriptSrc: ["'self'"] } } } });
    app.get('/x', async (_req, reply) => reply.cspNonce);
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/x' });
      const { script, style } = res.json<{ script: string; style: string }>();
      expect(script).toMatch(/^[0-9a-f]{32}$/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain(`script-src 'self' 'nonce-${script}'`);
      expect(csp).toContain(`style-src 'nonce-${style}'`);
      seen.add(script).add(style);
    }
    expect(seen.size).toBe(6);
    await app.close();
  });
});
