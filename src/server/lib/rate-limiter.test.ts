// Both limiters behave alike; the Redis one runs against the real Redis at 127.0.0.1:6379 (or
// TEST_REDIS_URL), and the login limit holds across two app instances sharing it.
import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from './password';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './rate-limiter';
import { createAdvertiser, seedGeo } from '../test/factories';
import { createTestApp } from '../test/helpers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = () => `rl-test-${crypto.randomBytes(6).toString('hex')}:`;

async function behaves(limiter: RateLimiter, sleep: (ms: number) => Promise<void>) {
  expect(await limiter.peek('a')).toEqual({ count: 0, resetInMs: 0 });
  expect((await limiter.hit('a', 300)).count).toBe(1);
  expect((await limiter.hit('a', 300)).count).toBe(2);
  const seen = await limiter.peek('a');
  expect(seen.count).toBe(2);
  expect(seen.resetInMs).toBeGreaterThan(0);
  expect(seen.resetInMs).toBeLessThanOrEqual(300);
  expect((await limiter.peek('b')).count).toBe(0);
  await sleep(350);
  // The window ended: counting starts again.
  expect((await limiter.peek('a')).count).toBe(0);
  expect((await limiter.hit('a', 300)).count).toBe(1);
  await limiter.reset('a');
  expect((await limiter.peek('a')).count).toBe(0);
}

/** release takes back one attempt of its own window, and never lowers a later window's count. */
async function releases(limiter: RateLimiter, sleep: (ms: number) => Promise<void>) {
  await limiter.hit('r', 300);
  const mine = limiter.slotOf('r', 300, await limiter.hit('r', 300));
  await limiter.release(mine);
  expect((await limiter.peek('r')).count).toBe(1);
  // Released again (a bug or a retry): never below zero.
  await limiter.release(mine);
  await limiter.release(mine);
  expect((await limiter.peek('r')).count).toBe(0);
  const old = limiter.slotOf('r', 300, await limiter.hit('r', 300));
  await sleep(350);
  expect((await limiter.hit('r', 300)).count).toBe(1);
  await limiter.release(old);
  expect((await limiter.peek('r')).count).toBe(1);
}

describe('MemoryRateLimiter', () => {
  it('counts in fixed windows', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    await behaves(limiter, async (ms) => {
      now += ms;
    });
  });

  it('hands back an attempt within its own window only', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    await releases(limiter, async (ms) => {
      now += ms;
    });
  });
});

describe('RedisRateLimiter (real Redis)', () => {
  const limiters: RedisRateLimiter[] = [];
  afterAll(async () => {
    for (const l of limiters) await l.close();
  });

  it('counts in fixed windows', async () => {
    const limiter = new RedisRateLimiter(REDIS_URL, prefix());
    limiters.push(limiter);
    await behaves(limiter, (ms) => new Promise((r) => setTimeout(r, ms)));
  });

  it('hands back an attempt within its own window only', async () => {
    const limiter = new RedisRateLimiter(REDIS_URL, prefix());
    limiters.push(limiter);
    await releases(limiter, (ms) => new Promise((r) => setTimeout(r, ms)));
  });

  it('counts atomically under concurrent hits', async () => {
    const limiter = new RedisRateLimiter(REDIS_URL, prefix());
    limiters.push(limiter);
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('k', 10_000)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await limiter.redis.pttl(`${limiter['prefix']}k`)).toBeGreaterThan(0);
  });

  it('stops login brute force across two app instances that share Redis', async () => {
    const shared = prefix();
    const one = await createTestApp({ REDIS_URL });
    const two = await createTestApp({ REDIS_URL });
    try {
      // Each app gets a limiter with a prefix of this test, so parallel test runs do not meet.
      for (const app of [one, two]) {
        await app.ctx.limiter.close();
        app.ctx.limiter = new RedisRateLimiter(REDIS_URL, shared);
      }
      expect(one.ctx.limiter).toBeInstanceOf(RedisRateLimiter);
      // Two instances of one site share a database; here each has its own, holding the same account.
      const passwordHash = await hashPassword('the real password');
      const ids = [];
      for (const app of [one, two]) {
        await seedGeo(app.ctx);
        ids.push((await createAdvertiser(app.ctx, { username: 'redis_walker', passwordHash })).account.id);
      }
      expect(ids[0]).toBe(ids[1]);
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) {
        const app = i % 2 ? two : one;
        const res = await app.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { login: 'redis_walker', password: `wrong ${i}` },
          remoteAddress: `10.8.0.${i + 1}`,
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([422, 422, 422, 422, 422, 429]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
