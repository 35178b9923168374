// One Redis connection per instance (REDIS_URL), shared by the limits, the route limits and the answer
// cache (decision 1010). Its options make an outage cheap (issue 24, item 4): no offline queue (a command
// while disconnected fails at once instead of waiting for a reconnect), one retry, a 5 s limit on each
// command's answer (a connected Redis that stops answering), and a reconnect every 2 s at most. An outage
// writes one log line when it starts and one when it ends.
import { Redis, type Command } from 'ioredis';

export interface RedisLog {
  warn(msg: string): void;
  info(msg: string): void;
}

const consoleLog: RedisLog = { warn: (m) => console.warn(m), info: (m) => console.info(m) };

export const REDIS_OPTIONS = {
  connectTimeout: 2000,
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  retryStrategy: (times: number) => Math.min(times * 200, 2000),
} as const;

/** How long a command waits for its answer before it fails. */
export const COMMAND_TIMEOUT_MS = 5000;

/**
 * Fails each command that has no answer after `ms`. Unlike ioredis's own commandTimeout, the check waits
 * one more turn of the event loop: when this process was busy past the limit (PGlite holds the loop under
 * load), an answer that arrived in time is read first, instead of being taken for a silent Redis (with
 * commandTimeout the sign-in limits answered 503 while Redis was fine).
 */
function failUnansweredCommands(redis: Redis, ms: number) {
  const send = redis.sendCommand.bind(redis);
  const timed = new WeakSet<Command>();
  redis.sendCommand = (command, stream) => {
    if (!timed.has(command)) {
      timed.add(command);
      const timer = setTimeout(
        () =>
          setImmediate(() => {
            if (!command.isSettled) command.reject(new Error(`Redis did not answer ${command.name} within ${ms} ms`));
          }),
        ms,
      );
      timer.unref();
      const clear = () => clearTimeout(timer);
      command.promise.then(clear, clear);
    }
    return send(command, stream);
  };
}

export function connectRedis(url: string, log: RedisLog = consoleLog, opts: { commandTimeoutMs?: number } = {}): Redis {
  const redis = new Redis(url, REDIS_OPTIONS);
  failUnansweredCommands(redis, opts.commandTimeoutMs ?? COMMAND_TIMEOUT_MS);
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
export async function redisReady(redis: Redis, ms: number = REDIS_OPTIONS.connectTimeout): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    // One more turn of the event loop after the timer, so a connection made while it was busy counts.
    const timer = setTimeout(() => setImmediate(() => done(redis.status === 'ready')), ms);
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
