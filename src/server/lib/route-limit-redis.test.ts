import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';
import { backend } from '../test/helpers';

// Per-route limits (reports, impressions) are shared by every instance when REDIS_URL is set.
describe.runIf(backend === 'postgres')('route limits in Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:6379' });
    b = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:6379' });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('counts reports from one address across two instances', async () => {
    const ip = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const send = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: '/api/directory/setFeedback',
        payload: { data: { reason: 'spam' } },
        remoteAddress: ip,
      });
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await send(a)).statusCode, (await send(b)).statusCode);
    // 10 per 10 minutes in all: the 11th request, whichever instance gets it, is refused.
    expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
    expect(codes.slice(10)).toEqual([429, 429]);
  });
});
