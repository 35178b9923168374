// Decision 0721: helmet's headers are computed once; a page gets the page CSP with fresh nonces, an /api
// answer a static CSP that allows nothing to load and no frame. Decision 0712: a built script or a
// picture gets only the headers a subresource uses.
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGeo } from '../test/factories';
import { buildPagesApp, createTestApp, type TestApp } from '../test/helpers';
import { API_CSP, ASSET_HEADERS, securityHeaders } from './security-headers';

let t: TestApp;
let pages: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  // A built chunk (under dyn/, precompressed like the build's) and an uploaded picture beside the page.
  const dyn = path.join(t.dataDir, 'client', 'dyn');
  fs.mkdirSync(dyn, { recursive: true });
  fs.writeFileSync(path.join(dyn, 'index-abc123.js'), 'export const x = 1;\n'.repeat(100));
  fs.writeFileSync(path.join(dyn, 'index-abc123.js.br'), 'br');
  fs.writeFileSync(path.join(dyn, 'pictures-abc123.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const media = path.join(t.dataDir, 'media', 'public', 'u', '1');
  fs.mkdirSync(media, { recursive: true });
  fs.writeFileSync(path.join(media, 'a.webp'), 'RIFF');
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

  it('a built script and a picture carry only what a subresource uses; a page still the full set', async () => {
    const DOCUMENT_ONLY = [
      'content-security-policy',
      'x-frame-options',
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
      'permissions-policy',
    ];
    const script = await pages.inject({
      method: 'GET',
      url: '/dyn/index-abc123.js?v=b1',
      headers: { 'accept-encoding': 'br' },
    });
    const picture = await pages.inject({ method: 'GET', url: '/media/u/1/a.webp' });
    for (const [name, res] of [
      ['script', script],
      ['picture', picture],
    ] as const) {
      expect(res.statusCode, name).toBe(200);
      expect(res.headers, name).toMatchObject(Object.fromEntries(ASSET_HEADERS));
      for (const header of DOCUMENT_ONLY) expect(res.headers[header], `${name}: ${header}`).toBeUndefined();
      expect(res.headers['content-type'], name).toBeTruthy();
      expect(res.headers['cache-control'], name).toMatch(/immutable/);
      expect(res.headers.etag, name).toBeTruthy();
    }
    expect(script.headers['content-encoding']).toBe('br');
    expect(script.headers.vary).toMatch(/accept-encoding/);
    // An SVG can be opened as a document (and run script): it keeps the page's headers.
    const svg = await pages.inject({ method: 'GET', url: '/dyn/pictures-abc123.svg' });
    expect(svg.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(svg.headers['x-frame-options']).toBe('SAMEORIGIN');
    // The page beside them keeps every header, Permissions-Policy included.
    const page = await pages.inject({ method: 'GET', url: '/escorts/germany' });
    for (const header of DOCUMENT_ONLY) expect(page.headers[header], `page: ${header}`).toBeTruthy();
    expect(page.headers).toMatchObject({ ...HELMET, 'x-xss-protection': '0', 'origin-agent-cluster': '?1' });
  });

  it('a page makes no random nonce: its CSP names the nonce derived from the page, twice the same', async () => {
    const first = await pages.inject({ method: 'GET', url: '/escorts/germany' });
    const again = await pages.inject({ method: 'GET', url: '/escorts/germany' });
    const nonces = (csp: unknown) => [...String(csp).matchAll(/'nonce-([0-9a-f]+)'/g)].map((m) => m[1]);
    expect(nonces(first.headers['content-security-policy'])).toHaveLength(2);
    expect(new Set(nonces(first.headers['content-security-policy'])).size).toBe(1);
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
  });

  it('an answer outside /api that names no nonce gets the page CSP without nonce sources', async () => {
    const app = Fastify();
    securityHeaders(app, { helmet: { contentSecurityPolicy: { directives: { scriptSrc: ["'self'"] } } } });
    app.get('/robots.txt', async () => 'User-agent: *');
    const res = await app.inject({ method: 'GET', url: '/robots.txt' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('nonce');
    await app.close();
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
