// The directory's answers are what their declared schemas say (issue 7 item 3), by either road: a
// signed-in user's through the route's serializer, a visitor's from the cache of serialised answers,
// which the serializer never sees (directory.routes.ts encodes them by the same schema before caching).
// Runs on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CountriesResponse,
  DirectoryPage,
  Navigation,
  NearbyPage,
  ProfileResponse,
} from '#shared/schemas/directory.ts';
import { FeedPage } from '#shared/schemas/feed.ts';
import { refreshCountryPrimary } from '../listings/listings.service';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
let anna: number;
let viewer: Awaited<ReturnType<typeof createSession>>;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  anna = (await createAdvertiser(t.ctx, { screenName: 'Anna Answers' })).account.id;
  await createAdvertiser(t.ctx, { screenName: 'Bea Answers' });
  const reader = (await createAdvertiser(t.ctx, { screenName: 'Cleo Reader' })).account.id;
  viewer = await createSession(t.ctx, reader);
  await refreshCountryPrimary(t.ctx.db, t.ctx.now());
});
afterAll(() => t.close());

const calls: Array<{ name: string; method: 'GET' | 'POST'; url: () => string; payload?: object; schema: z.ZodType }> = [
  { name: 'countries', method: 'GET', url: () => '/api/directory/countries', schema: CountriesResponse },
  {
    name: 'navigation',
    method: 'POST',
    url: () => '/api/directory/getNavigation',
    payload: { country: 'united-kingdom' },
    schema: Navigation,
  },
  {
    name: 'directory',
    method: 'POST',
    url: () => '/api/directory/getDirectory?page=1',
    payload: { country: 'united-kingdom' },
    schema: DirectoryPage,
  },
  {
    name: 'search',
    method: 'POST',
    url: () => '/api/directory/search?page=1',
    payload: { q: 'answers' },
    schema: DirectoryPage,
  },
  {
    name: 'nearby',
    method: 'POST',
    url: () => '/api/directory/nearby?page=1',
    payload: { lat: 51.5, lng: -0.12 },
    schema: NearbyPage,
  },
  { name: 'feed', method: 'GET', url: () => '/api/directory/feed/profiles', schema: FeedPage },
  { name: 'profile', method: 'GET', url: () => `/api/getProfile/${anna}?track=0`, schema: ProfileResponse },
  { name: 'rendered profile', method: 'GET', url: () => `/api/getProfile/${anna}?render=1`, schema: ProfileResponse },
  {
    name: 'profile by name',
    method: 'GET',
    url: () => '/api/getProfileByName/Anna%20Answers',
    schema: ProfileResponse,
  },
];

describe('directory answers', () => {
  it.each(calls)(
    '$name: a visitor (made, then cached) and a signed-in user get only what the schema names',
    async (c) => {
      const as = [{}, {}, { cookies: viewer.cookies, headers: viewer.headers }];
      for (const [i, who] of as.entries()) {
        const res = await t.app.inject({ method: c.method, url: c.url(), payload: c.payload, ...who });
        expect(res.statusCode, `${c.name} #${i}`).toBe(200);
        const body = res.json();
        // Encoding by the schema drops every key it does not name: an answer with one more differs.
        expect(z.encode(c.schema, body), `${c.name} #${i}`).toEqual(body);
      }
    },
  );

  it('names each answer per status in the API document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    }>();
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort();
    expect(statuses('/api/getProfile/{id}', 'get')).toEqual(['200', '304', '404', '414', '422', '503']);
    expect(doc.paths['/api/getProfile/{id}'].get.responses['304'].content).toBeUndefined();
    expect(JSON.stringify(doc.paths['/api/getProfile/{id}'].get.responses['200'])).toContain('screen_name');
    expect(statuses('/api/directory/getDirectory', 'post')).toEqual(['200', '403', '404', '413', '415', '422', '503']);
    expect(statuses('/api/directory/setFeedback', 'post')).toEqual([
      '200',
      '403',
      '404',
      '413',
      '415',
      '422',
      '429',
      '503',
    ]);
    expect(JSON.stringify(doc.paths['/api/directory/setFeedback'].post.responses['200'])).toContain('notification');
    expect(statuses('/api/help/contact', 'post')).toEqual(['200', '403', '413', '415', '422', '429', '503']);
    expect(statuses('/api/getLanguage/{lang}', 'get')).toEqual(['200', '304', '404', '414', '422', '503']);
  });
});
