// Spec section 1: only signed-in users get the user-data fetch. The SPA asks only while the readable
// CSRF cookie says there is a session; a 401 drops that cookie with the session's, so a dead session
// costs one call and a visitor none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE } from '#shared/constants.ts';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

describe('the user-data fetch', () => {
  it('answers a signed-in user', async () => {
    const { account } = await createAdvertiser(t.ctx);
    const session = await createSession(t.ctx, account.id);
    const res = await t.app.inject({ method: 'POST', url: '/api/app/getData/x', ...session });
    expect(res.statusCode).toBe(200);
  });

  it('drops the session cookie and the CSRF cookie with a 401', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/app/getData/x',
      cookies: { sid: 'no-such-session', [CSRF_COOKIE]: 'stale' },
      headers: { 'x-csrf-token': 'stale' },
    });
    expect(res.statusCode).toBe(401);
    const cleared = res.cookies.filter((c) => c.value === '' || (c.expires && c.expires.getTime() <= Date.now()));
    expect(cleared.map((c) => c.name).sort()).toEqual([CSRF_COOKIE, 'sid'].sort());
  });
});
