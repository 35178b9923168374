// Fixed-window counters for brute-force protection (login, PIN, reset mails...). In process by
// default; Redis when REDIS_URL is set, so every instance behind a load balancer shares the counts.
import { Redis } from 'ioredis';
import type { Env } from '../env';

export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends (0 when the key has no count). */
  resetInMs: number;
}

export interface RateLimiter {
  /** The key's count in its current window, without adding to it. */
  peek(key: string): Promise<WindowCount>;
  /** Adds one to the key's count; the window starts at the first hit and lasts windowMs. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  reset(key: string): Promise<void>;
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

export class RedisRateLimiter implements RateLimiter {
  readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'rl:',
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
  }

  async peek(key: string): Promise<WindowCount> {
    const [count, ttl] = await Promise.all([this.redis.get(this.prefix + key), this.redis.pttl(this.prefix + key)]);
    return { count: count ? Number(count) : 0, resetInMs: ttl > 0 ? ttl : 0 };
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs))) as [
      number,
      number,
    ];
    return { count, resetInMs: ttl };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

export function createRateLimiter(env: Pick<Env, 'REDIS_URL'>): RateLimiter {
  return env.REDIS_URL ? new RedisRateLimiter(env.REDIS_URL) : new MemoryRateLimiter();
}
