// A Redis that hangs (accepts connections, never answers: a redis-server of the test's own, paused with
// SIGSTOP) costs the instance one short limit, not one per command (issue 42 item 3, decision 1010): the
// first sign-in after the hang waits COMMAND_TIMEOUT_MS and answers 503; after it nothing is sent to
// Redis (counted by a pass-through in front of it), sign-in answers 503 at once, pages are served from
// the database, readiness says 503 within a second; once Redis answers again a PING marks it up and the
// limits count in Redis again.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisRateLimiter } from '../../lib/rate-limiter';
import { COMMAND_TIMEOUT_MS, PROBE_INTERVAL_MS, RedisNotAnswering, redisSilent } from '../../lib/redis';
import { createAdvertiser, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { countingProxy, startOwnRedis, type CountingProxy, type OwnRedis } from '../../test/own-redis';

describe('with Redis hung', () => {
  let own: OwnRedis;
  let proxy: CountingProxy;
  let t: TestApp;
  let profileId: number;
  beforeAll(async () => {
    own = await startOwnRedis();
    proxy = await countingProxy(own.port);
    t = await createTestApp({ REDIS_URL: proxy.url });
    await seedGeo(t.ctx);
    profileId = (await createAdvertiser(t.ctx)).account.id;
  });
  afterAll(async () => {
    own?.resume();
    await t?.close();
    await proxy?.close();
    await own?.stop();
  });

  const redis = () => (t.ctx.limiter as RedisRateLimiter).redis;
  /** The answer and how long it took. */
  const timed = async <R>(ask: () => Promise<R>) => {
    const began = performance.now();
    const res = await ask();
    return { res, ms: performance.now() - began };
  };
  const signIn = () =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { login: 'nobody', password: 'whatever it is' } });
  const ready = () => t.app.inject({ url: '/api/health/ready' });
  /** Commands other than the probe's PING. */
  const notPings = (names: string[]) => names.filter((n) => n !== 'PING');

  it('costs one limit, then refuses sign-in at once, serves pages and sends Redis nothing until a PING answers', async () => {
    expect((await ready()).statusCode).toBe(200);
    const well = proxy.commands.length;
    // A wrong login (422), counted in Redis.
    expect((await signIn()).statusCode).toBe(422);
    expect(notPings(proxy.commands.slice(well)).length).toBeGreaterThan(0);

    own.pause();
    // The first command after the hang waits out the limit: the sign-in that sent it answers 503.
    const first = await timed(signIn);
    expect(first.res.statusCode).toBe(503);
    expect(first.ms).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 1);
    expect(redisSilent(redis())).toBe(true);
    const sent = proxy.commands.length;

    // From here on: nothing waits for Redis.
    for (let i = 0; i < 5; i++) {
      const again = await timed(signIn);
      expect(again.res.statusCode).toBe(503);
      expect(again.res.headers['retry-after']).toBe('60');
      expect(again.ms).toBeLessThan(COMMAND_TIMEOUT_MS);
    }
    const refused = await t.ctx.limiter.hit('probe', 60_000).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((refused as { redisError?: unknown }).redisError).toBeInstanceOf(RedisNotAnswering);

    // Pages are read from the database (the answer cache's Redis layer and the view count are skipped).
    const list = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory?page=1',
      payload: { country: 'united-kingdom' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((i: { id: number }) => i.id)).toContain(profileId);
    expect((await t.app.inject({ url: `/api/getProfile/${profileId}` })).statusCode).toBe(200);
    // A phone reveal (a route limit and a count, both in Redis; 10 s before the breaker): let through,
    // uncounted, with nothing sent to Redis (counted below).
    const reveal = await t.app.inject({ method: 'POST', url: `/api/directory/phoneReveal/${profileId}` });
    expect(reveal.statusCode).toBe(200);

    const notReady = await timed(ready);
    expect(notReady.res.statusCode).toBe(503);
    expect(notReady.res.json()).toEqual({ message: 'The server is not ready.' });
    expect(notReady.ms).toBeLessThan(1000);

    // Two probe intervals more: still nothing sent but the one probe PING, unanswered.
    await new Promise((r) => setTimeout(r, 2 * PROBE_INTERVAL_MS));
    expect(notPings(proxy.commands.slice(sent))).toEqual([]);
    expect(proxy.commands.slice(sent).length).toBeLessThanOrEqual(1);

    own.resume();
    await vi.waitFor(async () => expect((await ready()).statusCode).toBe(200), { timeout: 5_000, interval: 100 });
    expect(redisSilent(redis())).toBe(false);
    const back = proxy.commands.length;
    expect((await signIn()).statusCode).toBe(422);
    // The limits are counted in Redis again.
    expect(notPings(proxy.commands.slice(back)).length).toBeGreaterThan(0);
  });

  it('says 503 within a second when readiness is the first to ask a hung Redis, and 200 once it answers', async () => {
    expect((await ready()).statusCode).toBe(200);
    own.pause();
    const first = await timed(ready);
    expect(first.res.statusCode).toBe(503);
    expect(first.ms).toBeLessThan(1000);
    expect(redisSilent(redis())).toBe(true);
    own.resume();
    await vi.waitFor(async () => expect((await ready()).statusCode).toBe(200), { timeout: 5_000, interval: 100 });
  });
});
