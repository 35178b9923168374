import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';
import { seedGeo } from '../test/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

describe('API error conventions (spec section 8)', () => {
  it('answers a missing required field with the 422 envelope and the blank message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory',
      payload: { category: 'female' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Please check what you entered.',
      errors: { country: ["Country can't be blank!"] },
    });
  });

  it('names every invalid field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory',
      payload: { category: 'robots', country: 'United Kingdom!' },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(Object.keys(body.errors).sort()).toEqual(['category', 'country']);
    expect(body.errors.country).toEqual(['Use lowercase letters and hyphens only.']);
    const page = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory?page=0',
      payload: { country: 'united-kingdom' },
    });
    expect(page.statusCode).toBe(422);
    expect(Object.keys(page.json().errors)).toEqual(['page']);
  });

  it('turns unreadable JSON into a 422, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory',
      headers: { 'content-type': 'application/json' },
      payload: '{"country": ',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Please check what you entered.');
  });

  it('answers unknown API paths and malformed ids with 404 {message}', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/no/such/call' });
    expect(a.statusCode).toBe(404);
    expect(a.json()).toEqual({ message: 'Not found.' });
    const b = await t.app.inject({ method: 'GET', url: '/api/getProfile/abc' });
    expect(b.statusCode).toBe(404);
  });

  it('answers 401 {message} to a signed-in-only call without a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/app/getData/1' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('never leaks a stack trace from a server error', async () => {
    const { buildApp } = await import('../app');
    const app = await buildApp(t.ctx);
    app.get('/boom', async () => {
      throw new Error('secret internals at /srv/db.ts:42');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internals');
    expect(res.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
    await app.close();
  });

  it('reports health with the database kind', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: expect.stringMatching(/pglite|postgres/) });
  });
});

describe('client configuration', () => {
  it('tells the browser the fallback landing page and nothing secret', async () => {
    const t2 = await createTestApp({ FALLBACK_LANDING_URL: 'https://example.org/landing' });
    const res = await t2.app.inject({ method: 'GET', url: '/api/app/config' });
    expect(res.json()).toEqual({
      build: expect.any(String),
      fallback_landing_url: 'https://example.org/landing',
      currency: 'EUR',
    });
    expect(res.body).not.toMatch(/secret|database|postgres/i);
    await t2.close();
  });
});

/** Sends raw bytes to a listening app and reads the whole answer (the connection is closed after it). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('errors raised before any route (issue 8, item 12)', () => {
  it('answers a path that is not valid percent-encoding with 404 {message}, never echoing it', async () => {
    for (const url of ['/api/account/%', '/api/getProfile/%zz', '/api/getProfileByName/%E0%A4%A']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.' });
    }
  });

  it('answers a path parameter that is too long with 414 {message}, never echoing it', async () => {
    const long = 'x'.repeat(500);
    const res = await t.app.inject({ method: 'GET', url: `/api/getProfileByName/${long}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ message: 'The address is too long.' });
    const de = await t.app.inject({
      method: 'GET',
      url: `/api/getProfileByName/${long}`,
      headers: { 'x-language': 'de' },
    });
    expect(de.body).not.toContain(long);
  });

  it('answers what the HTTP parser refuses in the envelope too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const bad = await raw(port, 'GET /api/health?<script> HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect(bad.split('\r\n\r\n')[1]).toBe(JSON.stringify({ message: 'The request could not be read.' }));
    expect(bad).not.toContain('<script>');
    const huge = await raw(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(huge.split('\r\n\r\n')[1]).toBe(JSON.stringify({ message: 'The request headers are too large.' }));
  });
});
