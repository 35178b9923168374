// One Redis connection per instance (REDIS_URL), shared by the limits, the route limits and the answer
// cache (decision 1010). Its options make an outage cheap (issue 24, item 4): no offline queue (a command
// while disconnected fails at once instead of waiting for a reconnect), one retry, and a reconnect every
// 2 s at most. A Redis that stays connected but stops answering (issue 42, item 3) costs one short limit:
// the first command without an answer after COMMAND_TIMEOUT_MS fails and marks the connection silent;
// from then on every command fails at once without being sent, as when disconnected, until a PING sent
// every PROBE_INTERVAL_MS answers within the limit. An outage writes one log line when it starts and one
// when it ends.
import { Command, Redis } from 'ioredis';

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

/** How long a command waits for its answer before it fails and the connection is taken for silent. */
export const COMMAND_TIMEOUT_MS = 500;
/** While silent, how often a PING asks whether Redis answers again (one PING unanswered at a time). */
export const PROBE_INTERVAL_MS = 1000;

/** A command refused without being sent: the connection is marked silent until a PING answers. */
export class RedisNotAnswering extends Error {}

/**
 * Calls `late` when `command` has no answer `ms` after now. The check waits one more turn of the event
 * loop: when this process was busy past the limit (PGlite holds the loop under load), an answer that
 * arrived in time is read first, instead of being taken for a silent Redis (ioredis's own commandTimeout
 * looks before the pending reads, and the sign-in limits answered 503 while Redis was fine).
 */
function afterLimit(ms: number, command: Command, late: () => void) {
  const timer = setTimeout(() => setImmediate(() => command.isSettled || late()), ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  command.promise.then(clear, clear);
}

/** The silence breaker of one connection (decision 1010). */
class Breaker {
  silent = false;
  private probe?: Command;
  private probing?: NodeJS.Timeout;
  private readonly send: Redis['sendCommand'];

  constructor(
    private readonly redis: Redis,
    private readonly ms: number,
    private readonly probeMs: number,
    private readonly onSilent: (command: string) => void,
    private readonly onAnswering: () => void,
  ) {
    this.send = redis.sendCommand.bind(redis);
    const timed = new WeakSet<Command>();
    redis.sendCommand = (command, stream) => {
      // Only on an open connection: the handshake of a new one (its ready check) goes out as ever.
      if (this.silent && redis.status === 'ready') {
        command.reject(new RedisNotAnswering(`Redis is not answering: ${command.name} not sent until a PING answers`));
        return command.promise;
      }
      if (!timed.has(command)) {
        timed.add(command);
        afterLimit(ms, command, () => {
          command.reject(new Error(`Redis did not answer ${command.name} within ${ms} ms`));
          this.markSilent(command.name);
        });
      }
      return this.send(command, stream);
    };
  }

  private markSilent(command: string) {
    if (this.silent) return;
    this.silent = true;
    this.onSilent(command);
    this.probing = setInterval(() => this.ping(), this.probeMs);
    this.probing.unref();
    this.ping();
  }

  /** Redis answered (a probe in time, or a new connection's ready check): commands go out again. */
  answering() {
    if (!this.silent) return;
    this.silent = false;
    this.probe = undefined;
    clearInterval(this.probing);
    this.onAnswering();
  }

  /**
   * One PING, unless the last one is still unanswered (a silent Redis gets one, not one a second piling
   * up in its socket). Only an answer within the limit marks Redis answering: the late answer to a PING
   * that waited out the silence does not, the next one does, and a Redis that answers slower than the
   * limit stays marked silent instead of tripping the breaker again with every request's command.
   */
  private ping() {
    if (!this.silent || this.probe || this.redis.status !== 'ready') return;
    const ping = new Command('ping', [], { replyEncoding: 'utf8' });
    this.probe = ping;
    let inTime = true;
    afterLimit(this.ms, ping, () => (inTime = false));
    const done = (answer?: unknown) => {
      if (this.probe !== ping) return;
      this.probe = undefined;
      if (inTime && answer === 'PONG') this.answering();
    };
    this.send(ping);
    ping.promise.then(done, () => done());
  }
}

const breakers = new WeakMap<Redis, Breaker>();

/** The connection is marked silent: its commands fail at once, unsent, until a PING answers in time. */
export function redisSilent(redis: Redis): boolean {
  return breakers.get(redis)?.silent ?? false;
}

export function connectRedis(
  url: string,
  log: RedisLog = consoleLog,
  opts: { commandTimeoutMs?: number; probeIntervalMs?: number } = {},
): Redis {
  const redis = new Redis(url, REDIS_OPTIONS);
  const ms = opts.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  let down = false;
  const breaker = new Breaker(
    redis,
    ms,
    opts.probeIntervalMs ?? PROBE_INTERVAL_MS,
    (command) => {
      if (down) return;
      log.warn(
        `Redis did not answer ${command} within ${ms} ms: nothing is sent to it (sign-in and PIN limits answer 503, caches read the database) until a PING answers`,
      );
    },
    () => {
      if (!down) log.info('Redis answers again');
    },
  );
  breakers.set(redis, breaker);
  // Without a listener ioredis prints every failed reconnect ("Unhandled error event"): a flood.
  redis.on('error', (err: Error) => {
    if (down || breaker.silent) return;
    down = true;
    log.warn(
      `Redis unreachable (${err.message}): sign-in and PIN limits answer 503, caches read the database, until it is back`,
    );
  });
  redis.on('ready', () => {
    // A new connection's ready check was answered: Redis answers (one line, whichever outage it ends).
    breaker.answering();
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

/** PING within the command timeout: the readiness check. A connection marked silent answers false at once. */
export async function redisAnswers(redis: Redis): Promise<boolean> {
  if (redis.status !== 'ready' || redisSilent(redis)) return false;
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}
