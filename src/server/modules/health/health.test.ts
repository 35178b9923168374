// Liveness, readiness and the Redis outage policy (issue 24, item 4): with Redis unreachable (a URL
// naming a closed port) readiness says so, the sign-in limits refuse with 503 at once (no queue), the
// directory and profiles are read from the database, and the outage is one log line, not a flood.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LimitsUnavailableError, RedisRateLimiter } from '../../lib/rate-limiter';
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

  it('is not ready', async () => {
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ message: 'The server is not ready.' });
  });

  it('refuses sign-in with 503 (the limits fail closed), and says when to retry', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'nobody', password: 'whatever it is' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ message: 'This is briefly unavailable. Please try again in a minute.' });
    expect(res.headers['retry-after']).toBe('60');
  });

  it('refuses at once: a command is not queued until a reconnect, nor left to time out', async () => {
    const refused = await t.ctx.limiter.hit('probe', 60_000).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(LimitsUnavailableError);
    expect(String((refused as LimitsUnavailableError).redisError)).toMatch(/enableOfflineQueue/);
  });

  it('still shows the directory and a profile, from the database', async () => {
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory?page=1',
      payload: { country: 'united-kingdom' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((i: { id: number }) => i.id)).toContain(profileId);
    const profile = await t.app.inject({ url: `/api/getProfile/${profileId}` });
    expect(profile.statusCode).toBe(200);
  });

  it('writes one log line when the outage starts, however often the reconnect fails, and one when it ends', async () => {
    const lines: string[] = [];
    const redis = connectRedis(url, { warn: (m) => lines.push(m), info: (m) => lines.push(m) });
    let failures = 0;
    redis.on('error', () => failures++);
    let proxy: net.Server | undefined;
    const sockets: net.Socket[] = [];
    try {
      await vi.waitFor(() => expect(failures).toBeGreaterThanOrEqual(3), { timeout: 15_000 });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/Redis unreachable/);
      expect(t.ctx.limiter).toBeInstanceOf(RedisRateLimiter);
      // Redis comes back on that address (a pass-through to the real one; no key is read or written).
      const port = Number(new URL(url).port);
      const real = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
      proxy = net.createServer((client) => {
        const upstream = net.connect(Number(real.port || 6379), real.hostname);
        sockets.push(client, upstream);
        client.pipe(upstream).pipe(client);
        const close = () => (client.destroy(), upstream.destroy());
        client.on('error', close);
        upstream.on('error', close);
      });
      await new Promise<void>((resolve) => proxy!.listen(port, '127.0.0.1', resolve));
      await vi.waitFor(() => expect(redis.status).toBe('ready'), { timeout: 15_000 });
      expect(lines).toEqual([lines[0], 'Redis is reachable again']);
    } finally {
      redis.disconnect();
      // The app's own connection came back through the pass-through too: cut it with the rest.
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => (proxy ? proxy.close(r) : r(undefined)));
    }
  }, 40_000);
});
