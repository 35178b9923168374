// TRUST_PROXY as an operator writes it (issue 24's operator trial): `false` is off, not an address that
// failed the start with proxy-addr's "invalid IP address: false".
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/helpers';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

describe('TRUST_PROXY', () => {
  it('starts and answers with false, true, a hop count and an address list', async () => {
    for (const value of ['false', 'true', '1', '127.0.0.1,10.0.0.0/8']) {
      const t = await createTestApp({ TRUST_PROXY: value });
      apps.push(t);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(res.statusCode, value).toBe(200);
    }
  });
});
