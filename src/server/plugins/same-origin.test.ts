// Issue 8, item 14: every state-changing /api route refuses a request another site made, whoever is
// signed in and whatever it sends. The routes come from the app's route table: new ones are covered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdvertiser, createSession, seedGeo } from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';
import { routeTable } from './route-table';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createSession>>;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  admin = await createSession(t.ctx, (await createAdvertiser(t.ctx, { role: 'admin' })).account.id);
});
afterAll(() => t.close());

const CROSS_SITE: Array<Record<string, string>> = [
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
  { origin: 'https://evil.example' },
  { origin: 'null' },
];

describe('cross-site requests', () => {
  it('are refused with 403 on every state-changing /api route', async () => {
    const writes = routeTable(t.app).filter((r) => r.url.startsWith('/api/') && r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const route of writes) {
      const url = route.url.replace(/:\w+|\*/g, '1');
      for (const headers of CROSS_SITE) {
        const res = await t.app.inject({
          method: route.method as 'POST',
          url,
          payload: {},
          cookies: admin.cookies,
          headers: { ...admin.headers, ...headers },
        });
        if (res.statusCode !== 403 || res.json().message !== 'Cross-site requests are not allowed.')
          wrong.push(`${route.method} ${route.url} ${JSON.stringify(headers)}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('let our own pages and server-to-server calls through', async () => {
    const same = await t.app.inject({
      method: 'POST',
      url: '/api/app/ping',
      cookies: admin.cookies,
      headers: {
        ...admin.headers,
        origin: 'http://localhost:80',
        host: 'localhost:80',
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(same.statusCode).toBe(200);
    // A provider's webhook sends no Origin: it is refused for its signature, not as cross-site.
    const hook = await t.app.inject({ method: 'POST', url: '/api/payment/webhook/sandbox', payload: {} });
    expect(hook.statusCode).not.toBe(403);
  });
});
