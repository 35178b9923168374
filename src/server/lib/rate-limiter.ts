// Fixed-window counters for brute-force protection (login, PIN, reset mails...). In process by
// default; Redis when REDIS_URL is set, so every instance behind a load balancer shares the counts.
// With Redis unreachable a count cannot be kept: the limiter fails closed with LimitsUnavailableError
// (503) within milliseconds, rather than let guesses through uncounted (issue 24, item 4).
import type { Redis } from 'ioredis';
import { msg } from '#shared/api/messages.ts';
import type { Env } from '../env';
import { AppError } from './errors';
import { connectRedis, redisReady, type RedisLog } from './redis';

/** Redis did not answer: the count is unknown. */
export class LimitsUnavailableError extends AppError {
  constructor(readonly redisError: unknown) {
    super(503, 'unavailable', msg('errors.brieflyUnavailable'), 60);
  }
}

export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends (0 when the key has no count). */
  resetInMs: number;
}

/** One attempt taken by `hit`, to be handed back by `release`: the key and the window it was counted in. */
export interface Slot {
  key: string;
  /** When that window ends, by the limiter's own clock (memory) or the wall clock (Redis). */
  windowEndsAt: number;
  windowMs: number;
}

/**
 * How far a window's end may seem to move between `hit` and `release` (clock reads, the trip to Redis):
 * a second, but never so much that the next window (which ends a whole window later) could pass for it.
 */
const slack = (slot: Slot) => Math.min(1000, slot.windowMs / 4);

export interface RateLimiter {
  /** The key's count in its current window, without adding to it. */
  peek(key: string): Promise<WindowCount>;
  /** Adds one to the key's count; the window starts at the first hit and lasts windowMs. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  reset(key: string): Promise<void>;
  /**
   * Takes back one attempt `hit` counted, if its window is still the current one: a later window's
   * counts (failures of someone else) are never lowered by an attempt of an earlier one.
   */
  release(slot: Slot): Promise<void>;
  /** The slot a `hit(key, windowMs)` that answered `count` took. */
  slotOf(key: string, windowMs: number, count: WindowCount): Slot;
  close(): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly entries = new Map<string, { count: number; expiresAt: number }>();
  private hits = 0;

  constructor(private readonly now: () => number = Date.now) {}

  private live(key: string) {
    const e = this.entries.get(key);
    if (e && e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  async peek(key: string): Promise<WindowCount> {
    const e = this.live(key);
    return e ? { count: e.count, resetInMs: e.expiresAt - this.now() } : { count: 0, resetInMs: 0 };
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    if (++this.hits % 1000 === 0) this.sweep();
    let e = this.live(key);
    if (!e) {
      e = { count: 0, expiresAt: this.now() + windowMs };
      this.entries.set(key, e);
    }
    e.count += 1;
    return { count: e.count, resetInMs: e.expiresAt - this.now() };
  }

  async reset(key: string): Promise<void> {
    this.entries.delete(key);
  }

  slotOf(key: string, windowMs: number, count: WindowCount): Slot {
    return { key, windowMs, windowEndsAt: this.now() + count.resetInMs };
  }

  async release(slot: Slot): Promise<void> {
    const e = this.live(slot.key);
    if (e && Math.abs(e.expiresAt - slot.windowEndsAt) <= slack(slot) && e.count > 0) e.count -= 1;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private sweep() {
    const now = this.now();
    for (const [key, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(key);
  }
}

// INCR and the expiry in one step, so a crash between them cannot leave a key that never expires.
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
local t = redis.call('PTTL', KEYS[1])
if t < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  t = tonumber(ARGV[1])
end
return {c, t}
`;

// DECR only within the window the attempt was counted in: the key's remaining time must be what the
// slot says is left (within the slack); a new window has a whole window more.
const RELEASE_SCRIPT = `
local t = redis.call('PTTL', KEYS[1])
if t > 0 and math.abs(t - tonumber(ARGV[1])) <= tonumber(ARGV[2]) and tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  redis.call('DECR', KEYS[1])
end
return 0
`;

export class RedisRateLimiter implements RateLimiter {
  readonly redis: Redis;

  /** `redis`: a URL (a connection of its own) or the instance's connection. */
  constructor(
    redis: string | Redis,
    private readonly prefix = 'rl:',
    log?: RedisLog,
  ) {
    this.redis = typeof redis === 'string' ? connectRedis(redis, log) : redis;
    this.connected = redisReady(this.redis);
  }

  /** The first connection: commands wait for it (at most the connect timeout); later outages fail at once. */
  private readonly connected: Promise<boolean>;

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    await this.connected;
    try {
      return await fn();
    } catch (err) {
      throw new LimitsUnavailableError(err);
    }
  }

  async peek(key: string): Promise<WindowCount> {
    const [count, ttl] = await this.call(() =>
      Promise.all([this.redis.get(this.prefix + key), this.redis.pttl(this.prefix + key)]),
    );
    return { count: count ? Number(count) : 0, resetInMs: ttl > 0 ? ttl : 0 };
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = (await this.call(() =>
      this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs)),
    )) as [number, number];
    return { count, resetInMs: ttl };
  }

  async reset(key: string): Promise<void> {
    await this.call(() => this.redis.del(this.prefix + key));
  }

  slotOf(key: string, windowMs: number, count: WindowCount): Slot {
    return { key, windowMs, windowEndsAt: Date.now() + count.resetInMs };
  }

  async release(slot: Slot): Promise<void> {
    const left = String(slot.windowEndsAt - Date.now());
    await this.call(() => this.redis.eval(RELEASE_SCRIPT, 1, this.prefix + slot.key, left, String(slack(slot))));
  }

  async close(): Promise<void> {
    // QUIT needs a connection; without one there is nothing to say goodbye to.
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}

export function createRateLimiter(env: Pick<Env, 'REDIS_URL'>, log?: RedisLog): RateLimiter {
  return env.REDIS_URL ? new RedisRateLimiter(env.REDIS_URL, 'rl:', log) : new MemoryRateLimiter();
}
