// Issue 8, item 11: the Tumblr counter comes through our server, so the CSP names no foreign script
// host and allows no inline style; signed-in answers are never cached; features are switched off.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp, buildPagesApp } from '../../test/helpers';

let t: TestApp;
let pages: FastifyInstance;
let tumblr: http.Server;
const asked: string[] = [];
let answer: () => { status: number; body: string } = () => ({ status: 200, body: '{}' });

beforeAll(async () => {
  tumblr = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    const { status, body } = answer();
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => tumblr.listen(0, '127.0.0.1', resolve));
  const port = (tumblr.address() as AddressInfo).port;
  t = await createTestApp({ PUBLIC_URL: 'https://example.test', TUMBLR_STATS_URL: `http://127.0.0.1:${port}/stats` });
  await seedGeo(t.ctx);
  pages = await buildPagesApp(
    t,
    '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
  );
});
afterAll(async () => {
  await pages.close();
  await t.close();
  tumblr.close();
});

const count = (url: string) => t.app.inject({ method: 'GET', url: `/api/share/tumblr?url=${encodeURIComponent(url)}` });

describe('GET /api/share/tumblr', () => {
  it("answers Tumblr's note count of one of our profiles, asking Tumblr once for a while", async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ meta: { status: 200 }, response: { note_count: 1234 } }) });
    const first = await count('https://example.test/profile/42');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ count: 1234 });
    expect(first.headers['cache-control']).toBe('public, max-age=600');
    expect((await count('https://example.test/profile/42')).json()).toEqual({ count: 1234 });
    expect(asked.filter((u) => u.includes(encodeURIComponent('https://example.test/profile/42')))).toHaveLength(1);
  });

  it('answers null when Tumblr fails or says something else', async () => {
    answer = () => ({ status: 500, body: 'oops' });
    expect((await count('https://example.test/profile/43')).json()).toEqual({ count: null });
    answer = () => ({ status: 200, body: JSON.stringify({ response: { note_count: 'many' } }) });
    expect((await count('https://example.test/profile/44')).json()).toEqual({ count: null });
  });

  it('fetches nothing but our own profile addresses', async () => {
    const before = asked.length;
    for (const url of [
      'https://evil.example/profile/1',
      'https://example.test/admin',
      'https://example.test/profile/1?x=1',
      'javascript:alert(1)',
      'http://127.0.0.1:22/profile/1',
    ]) {
      const res = await count(url);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().errors.url).toBeDefined();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/share/tumblr' })).statusCode).toBe(422);
    expect(asked.length).toBe(before);
  });
});

describe('security headers', () => {
  it('a CSP without inline styles or scripts and without the Tumblr host; the page names its nonce', async () => {
    const page = await pages.inject({ method: 'GET', url: '/escorts/germany' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('tumblr');
    expect(csp).toMatch(/script-src 'self'/);
    const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(page.body).toContain(`<meta name="csp-nonce" content="${nonce}">`);
    // No style attribute in the server's HTML either.
    expect(page.body).not.toMatch(/style="/);
    // The nonce is derived from the page itself (docs/decisions/0700): the same page has the same one,
    // so that a browser's copy revalidates with 304; another page (or this one changed) has another.
    const again = await pages.inject({ method: 'GET', url: '/escorts/germany' });
    expect(String(again.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);
    const other = await pages.inject({ method: 'GET', url: '/escorts/united-kingdom' });
    expect(String(other.headers['content-security-policy'])).not.toContain(nonce);
  });

  it('a Permissions-Policy that switches off what the site does not use', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const policy = String(res.headers['permissions-policy']);
    expect(policy).toContain('camera=()');
    expect(policy).toContain('microphone=()');
    expect(policy).toContain('geolocation=(self)');
  });

  it('Cache-Control: no-store on every signed-in answer and on answers that start a session', async () => {
    const { account } = await createAdvertiser(t.ctx);
    const session = await createSession(t.ctx, account.id);
    const mine = await t.app.inject({ method: 'GET', url: `/api/account/${account.id}`, ...session });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['cache-control']).toBe('no-store');
    const config = await t.app.inject({ method: 'GET', url: '/api/app/config', ...session });
    expect(config.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'GET', url: `/api/account/${account.id + 1}`, ...session });
    expect(refused.headers['cache-control']).toBe('no-store');
    const visitor = await t.app.inject({ method: 'GET', url: '/api/app/config' });
    expect(visitor.headers['cache-control']).not.toBe('no-store');
  });
});
