// A signed-in user's server-rendered page speaks her saved language (issue 13, docs/decisions/0605),
// without touching the visitors' cache of pages; on PGlite and PostgreSQL.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../db/schema';
import { BERLIN, createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp, buildPagesApp } from '../../test/helpers';

let t: TestApp;
let app: FastifyInstance;
let cookies: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://example.test' });
  await seedGeo(t.ctx);
  app = await buildPagesApp(t);
  await createAdvertiser(t.ctx, { screenName: 'Bea Spree', city: BERLIN });
  const reader = await createAdvertiser(t.ctx, { screenName: 'Sol Reader', listed: false });
  await t.ctx.db.update(accounts).set({ language: 'es' }).where(eq(accounts.id, reader.account.id));
  cookies = (await createSession(t.ctx, reader.account.id)).cookies;
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const lang = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1];

describe('server pages in the signed-in account language', () => {
  it('renders a signed-in es account page in Spanish on the English host, kept by nobody', async () => {
    const res = await app.inject({ method: 'GET', url: '/escorts/germany', cookies });
    expect(res.statusCode).toBe(200);
    expect(lang(res.body)).toBe('es');
    expect(res.body).toContain('Alemania');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.etag).toBeUndefined();
  });

  it('still answers visitors in English from the cache, with ETag and 304', async () => {
    const first = await app.inject({ method: 'GET', url: '/escorts/germany' });
    expect(lang(first.body)).toBe('en');
    expect(first.body).not.toContain('Alemania');
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const again = await app.inject({ method: 'GET', url: '/escorts/germany', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    // The signed-in page did not replace the visitors' one, nor the other way round.
    const mine = await app.inject({ method: 'GET', url: '/escorts/germany', cookies });
    expect(lang(mine.body)).toBe('es');
    expect(mine.headers.etag).toBeUndefined();
    const visitor = await app.inject({ method: 'GET', url: '/escorts/germany' });
    expect(visitor.headers.etag).toBe(etag);
  });

  it('lets ?lang= and the German host outrank the account', async () => {
    const query = await app.inject({ method: 'GET', url: '/escorts/germany?lang=de', cookies });
    expect(lang(query.body)).toBe('de');
    expect(query.headers['cache-control']).toBe('public, no-cache');
    const host = await app.inject({
      method: 'GET',
      url: '/escorts/germany',
      cookies,
      headers: { host: 'de.localhost' },
    });
    expect(lang(host.body)).toBe('de');
  });

  it('ignores a session that is not valid', async () => {
    const res = await app.inject({ method: 'GET', url: '/escorts/germany', cookies: { sid: 'not-a-session' } });
    expect(lang(res.body)).toBe('en');
    expect(res.headers['cache-control']).toBe('public, no-cache');
  });
});
