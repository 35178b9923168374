// Input a browser never sends but an attacker does (issue 8, items 4 and 5): NUL bytes in text and ids
// beyond PostgreSQL's integer range. Each used to reach the database and answer 500; the shared field
// builders (#shared/api/fields.ts) now refuse them with the spec's 422 envelope, or 404 in a path.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ID } from '#shared/api/fields.ts';

const controlCharactersMessage = (label: string) => `${label} may not contain control characters.`;
import { buildApp } from '../app';
import { as } from '../test/as';
import { createAdvertiser, createSession, seedGeo, type Session } from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';

let t: TestApp;
let pages: FastifyInstance;
let owner: number;
let session: Session;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  owner = (await createAdvertiser(t.ctx, { screenName: 'Nora Null' })).account.id;
  session = await createSession(t.ctx, owner);
  const clientDir = path.join(t.dataDir, 'client');
  fs.mkdirSync(clientDir);
  fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Directory</title><div id="root"></div>');
  pages = await buildApp(t.ctx, { serveClient: true, clientDir });
});
afterAll(async () => {
  await pages.close();
  await t.close();
});

function expect422(res: { statusCode: number; json(): unknown }, field: string, message?: string) {
  expect(res.statusCode).toBe(422);
  const body = res.json() as { message: string; errors: Record<string, string[]> };
  expect(body.message).toBe('Please check what you entered.');
  expect(Object.keys(body.errors)).toContain(field);
  if (message) expect(body.errors[field]).toContain(message);
}

describe('a NUL byte in a text field', () => {
  it('is a 422 naming the field at login and connect', async () => {
    expect422(
      await as(t).post('/api/auth/login', { login: 'a\u0000b', password: 'x' }),
      'login',
      // Named as the sign-in form labels it.
      controlCharactersMessage('Email or username'),
    );
    expect422(
      await as(t, session).post('/api/auth/connect', { login: 'a\u0000b', password: 'x' }),
      'login',
      // Named as the sign-in form labels it.
      controlCharactersMessage('Email or username'),
    );
  });

  it('is a 422 in feedback, comments and search', async () => {
    const feedback = (data: object) => as(t).post('/api/directory/setFeedback', { data: { reason: 'other', ...data } });
    expect422(await feedback({ message: 'hi\u0000' }), 'data.message', controlCharactersMessage('Message'));
    expect422(await feedback({ contact: '\u0000' }), 'data.contact', controlCharactersMessage('Contact'));
    expect422(
      await as(t, session).post(`/api/comments/${owner}`, { body: 'x\u0000y' }),
      'body',
      controlCharactersMessage('Comment'),
    );
    expect422(
      await as(t).post('/api/directory/search', { q: 'lon\u0000don' }),
      'q',
      controlCharactersMessage('Search'),
    );
  });

  it('keeps line breaks and tabs, which people do type', async () => {
    const res = await as(t, session).post(`/api/comments/${owner}`, { body: 'First line\nsecond\tline' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.body).toBe('First line\nsecond\tline');
  });

  it('names no profile in a path: 404, for the API and the page', async () => {
    expect((await as(t).get('/api/getProfileByName/a%00b')).statusCode).toBe(404);
    const page = await as(pages).get('/@a%00b');
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
  });
});

describe('an id of 2^31 or more', () => {
  const huge = MAX_ID + 1;

  it('is a 422 in a body', async () => {
    expect422(await as(t).post('/api/directory/impressions', { impressions: { home: [huge] } }), 'impressions.home.0');
    expect422(
      await as(t).post('/api/directory/setFeedback', { data: { reason: 'other', profile_id: huge } }),
      'data.profile_id',
    );
    expect422(await as(t, session).post('/api/notices/read', { ids: [huge] }), 'ids.0');
    expect422(await as(t, session).post(`/api/edit/deleteMedia/${owner}`, { id: 2 ** 53 }), 'id');
  });

  it('is a 404 in a path, for the API and the page', async () => {
    for (const url of [
      `/api/getProfile/${huge}`,
      `/api/comments/${huge}`,
      `/api/account/${huge}`,
      `/api/edit/getGallery/${huge}`,
    ])
      expect((await as(t, session).get(url)).statusCode, url).toBe(404);
    expect((await as(t).post(`/api/directory/phoneReveal/${huge}`, {})).statusCode).toBe(404);
    expect((await as(pages).get('/profile/9999999999')).statusCode).toBe(404);
  });

  it('still finds the largest id that exists', async () => {
    expect((await as(t).get(`/api/getProfile/${MAX_ID}`)).statusCode).toBe(404);
    expect((await as(t).get(`/api/getProfile/${owner}`)).statusCode).toBe(200);
  });
});
