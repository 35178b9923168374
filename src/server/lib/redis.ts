// One Redis connection per instance (REDIS_URL), shared by the limits, the route limits and the answer
// cache (decision 1010). Its options make an outage cheap (issue 24, item 4): no offline queue (a command
// while disconnected fails at once instead of waiting for a reconnect), one retry, a 5 s command timeout
// (a connected Redis that stops answering; shorter ones fired falsely while PGlite held the event loop),
// and a reconnect every 2 s at most. An outage writes one log line when it starts and one when it ends.
import { Redis } from 'ioredis';

export interface RedisLog {
  warn(msg: string): void;
  info(msg: string): void;
}

const consoleLog: RedisLog = { warn: (m) => console.warn(m), info: (m) => console.info(m) };

export const REDIS_OPTIONS = {
  connectTimeout: 2000,
  commandTimeout: 5000,
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  retryStrategy: (times: number) => Math.min(times * 200, 2000),
} as const;

export function connectRedis(url: string, log: RedisLog = consoleLog): Redis {
  const redis = new Redis(url, REDIS_OPTIONS);
  let down = false;
  // Without a listener ioredis prints every failed reconnect ("Unhandled error event"): a flood.
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.warn(
      `Redis unreachable (${err.message}): sign-in and PIN limits answer 503, caches read the database, until it is back`,
    );
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis is reachable again');
  });
  return redis;
}

/** Waits until the connection is ready, at most `ms`: a start does not hang on an unreachable Redis. */
export async function redisReady(redis: Redis, ms = REDIS_OPTIONS.connectTimeout): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    redis.on('ready', onReady);
  });
}

/** PING within the command timeout: the readiness check. */
export async function redisAnswers(redis: Redis): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}
