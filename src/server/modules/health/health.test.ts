// Liveness, readiness and the Redis outage policy (issue 24, item 4): with Redis unreachable (a URL
// naming a closed port) readiness says so, the sign-in limits refuse with 503 within milliseconds, the
// directory and profiles are read from the database, and the outage is one log line, not a flood.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../lib/rate-limiter';
import { connectRedis } from '../../lib/redis';
import { createAdvertiser, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

/** A port nothing listens on: Redis there is "unreachable". */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers live and ready, and ready says 503 once the instance drains while live stays 200', async () => {
    expect((await t.app.inject({ url: '/api/health/live' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ok', database: t.ctx.dbKind, redis: 'none' });
    t.ctx.lifecycle!.draining = true;
    try {
      const draining = await t.app.inject({ url: '/api/health/ready' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toEqual({ message: 'The server is not ready.' });
      expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      t.ctx.lifecycle!.draining = false;
    }
  });
});

describe('with Redis unreachable', () => {
  let t: TestApp;
  let profileId: number;
  let url: string;
  beforeAll(async () => {
    url = `redis://127.0.0.1:${await closedPort()}`;
    t = await createTestApp({ REDIS_URL: url });
    await seedGeo(t.ctx);
    profileId = (await createAdvertiser(t.ctx)).account.id;
  });
  afterAll(() => t.close());

  it('is not ready, quickly', async () => {
    const started = Date.now();
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('refuses sign-in with 503 in milliseconds (the limits fail closed), and says when to retry', async () => {
    const started = Date.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'nobody', password: 'whatever it is' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ message: 'This is briefly unavailable. Please try again in a minute.' });
    expect(res.headers['retry-after']).toBe('60');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('still shows the directory and a profile, from the database', async () => {
    const started = Date.now();
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory?page=1',
      payload: { country: 'united-kingdom' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((i: { id: number }) => i.id)).toContain(profileId);
    const profile = await t.app.inject({ url: `/api/getProfile/${profileId}` });
    expect(profile.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('writes one log line for the outage, however often the reconnect fails', async () => {
    const lines: string[] = [];
    const redis = connectRedis(url, { warn: (m) => lines.push(m), info: (m) => lines.push(m) });
    try {
      await new Promise((r) => setTimeout(r, 3_000));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/Redis unreachable/);
      expect(t.ctx.limiter).toBeInstanceOf(RedisRateLimiter);
    } finally {
      redis.disconnect();
    }
  });
});
