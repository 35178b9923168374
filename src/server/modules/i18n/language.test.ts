// GET /api/getLanguage/{lang} and the language saved on the account by the menu's switcher.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LanguageResponse } from '#shared/schemas/language.ts';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/getLanguage/{lang}', () => {
  it('serves every catalogue of a language with its version, cached for good when asked by version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/getLanguage/de' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.lang).toBe('de');
    expect(body.version).toMatch(/^[0-9a-f]{16}$/);
    expect(body.resources.titles.countries).toBe('Alle Länder');
    expect(body.resources.common.nav.language).toBe('Sprache');
    // Sent as bytes built once, past the serializer: still exactly what the declared answer names.
    expect(z.encode(LanguageResponse, body)).toEqual(body);
    expect(res.headers.etag).toBe(`"${body.version}"`);
    expect(res.headers['cache-control']).toContain('must-revalidate');

    const pinned = await t.app.inject({ method: 'GET', url: `/api/getLanguage/de?v=${body.version}` });
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/getLanguage/de',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('serves Portuguese its own texts (0606), and each language its own version', async () => {
    const pt = (await t.app.inject({ method: 'GET', url: '/api/getLanguage/pt' })).json();
    const es = (await t.app.inject({ method: 'GET', url: '/api/getLanguage/es' })).json();
    const en = (await t.app.inject({ method: 'GET', url: '/api/getLanguage/en' })).json();
    expect(pt.texts).toBe('pt');
    expect(pt.resources.titles.countries).toBe('Todos os países');
    expect(pt.version).not.toBe(es.version);
    expect(en.version).not.toBe(es.version);
    expect(en.resources.titles.countries).toBe('All countries');
  });

  it('answers 404 for a language it does not have', async () => {
    for (const lang of ['fr', 'EN', 'x'.repeat(21), '..%2Fen']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/getLanguage/${lang}` });
      expect(res.statusCode, lang).toBe(404);
      expect(res.json().message, lang).toBeTruthy();
    }
  });
});

describe('POST /api/account/{id}/language', () => {
  it('saves the choice on the account, and /app/getData answers it', async () => {
    const { account } = await createAdvertiser(t.ctx, {});
    const session = await createSession(t.ctx, account.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/account/${account.id}/language`,
      payload: { language: 'es' },
      ...session,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { language: 'es' } });
    const data = await t.app.inject({ method: 'POST', url: '/api/app/getData/x', ...session });
    expect(data.json().language).toBe('es');
  });

  it('refuses a language it does not have with the 422 envelope and changes nothing', async () => {
    const { account } = await createAdvertiser(t.ctx, {});
    const session = await createSession(t.ctx, account.id);
    for (const payload of [{ language: 'fr' }, { language: 'de', extra: 1 }, {}]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/account/${account.id}/language`,
        payload,
        ...session,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors).toBeTruthy();
    }
    const data = await t.app.inject({ method: 'POST', url: '/api/app/getData/x', ...session });
    expect(data.json().language).toBe('en');
  });
});

describe('the account language at registration', () => {
  it("is the page's language (x-language, else ?lang= or host), so emails and the display follow it", async () => {
    const register = (n: string, extra: { headers?: Record<string, string>; url?: string }) =>
      t.app.inject({
        method: 'POST',
        url: extra.url ?? '/api/auth/register',
        headers: extra.headers,
        remoteAddress: `10.7.0.${n.length}`,
        payload: {
          email: `${n}@example.test`,
          username: n,
          password: 'correct horse battery',
          date_of_birth: '1990-05-17',
          terms: true,
        },
      });
    const cases: Array<[string, { headers?: Record<string, string>; url?: string }, string]> = [
      ['lang_de_header', { headers: { 'x-language': 'de' } }, 'de'],
      ['lang_es_query_x', { url: '/api/auth/register?lang=es' }, 'es'],
      ['lang_de_host_xyz', { headers: { host: 'de.example.test' } }, 'de'],
      ['lang_plain_english', {}, 'en'],
    ];
    for (const [name, extra, language] of cases) {
      const res = await register(name, extra);
      expect(res.statusCode, res.body).toBe(200);
      const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const csrf = res.cookies.find((c) => /csrf/i.test(c.name))?.value;
      const data = await t.app.inject({
        method: 'POST',
        url: '/api/app/getData/x',
        headers: { cookie, ...(csrf ? { 'x-csrf-token': csrf } : {}) },
      });
      expect(data.json().language, name).toBe(language);
    }
  });
});
