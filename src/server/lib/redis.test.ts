// The instance's Redis connection (decision 1010): a command without an answer fails after the limit and
// marks the connection silent, so a Redis that stops answering costs one short limit, not one per
// command; while silent nothing is sent to it but one PING at a time, and the first PING answered in
// time lets commands out again. A process that was busy past the limit (PGlite holds the event loop under
// load) does not take an answer that came in time for a silent Redis. Against the real Redis at
// 127.0.0.1:6379 (or TEST_REDIS_URL) through a pass-through that can go silent (only PING is sent there,
// no key is read or written), and against a redis-server of the test's own, paused with SIGSTOP.
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countingProxy, startOwnRedis } from '../test/own-redis';
import { connectRedis, redisAnswers, RedisNotAnswering, redisReady, redisSilent, type RedisLog } from './redis';
import type { Redis } from 'ioredis';

const real = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const quiet = { warn: () => undefined, info: () => undefined };

/** A TCP pass-through to the real Redis that stops forwarding its answers once `silent` is set. */
async function passThrough() {
  const sockets: net.Socket[] = [];
  const state = { silent: false };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(real.port || 6379), real.hostname);
    sockets.push(client, upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk) => {
      if (!state.silent) client.write(chunk);
    });
    const close = () => (client.destroy(), upstream.destroy());
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    state,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

let open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  // Last opened, first closed: the connection, then the pass-through, then the server.
  for (const o of open.reverse()) await o.close();
  open = [];
});

function connect(url: string, commandTimeoutMs: number, log: RedisLog = quiet, probeIntervalMs?: number): Redis {
  const redis = connectRedis(url, log, { commandTimeoutMs, probeIntervalMs });
  open.push({ close: () => redis.disconnect() });
  return redis;
}

describe('the Redis connection', () => {
  it('fails a command that gets no answer, once the limit has passed', async () => {
    const proxy = await passThrough();
    open.push(proxy);
    const redis = connect(proxy.url, 300);
    expect(await redisReady(redis, 10_000)).toBe(true);
    expect(await redis.ping()).toBe('PONG');
    proxy.state.silent = true;
    await expect(redis.ping()).rejects.toThrow(/Redis did not answer ping within 300 ms/);
    // The next one is refused at once: the limit is paid once, not per command.
    await expect(redis.get('never-sent')).rejects.toBeInstanceOf(RedisNotAnswering);
    expect(redisSilent(redis)).toBe(true);
  });

  it('takes an answer that came in time while the process was busy past the limit', async () => {
    const redis = connect(`redis://${real.host}`, 200);
    expect(await redisReady(redis, 10_000)).toBe(true);
    const answer = redis.ping();
    // The event loop is held well past the limit; Redis answers meanwhile.
    const until = Date.now() + 1_000;
    while (Date.now() < until);
    expect(await answer).toBe('PONG');
    // Nor is the connection taken for silent: the next command goes out.
    expect(redisSilent(redis)).toBe(false);
    expect(await redis.ping()).toBe('PONG');
  });
});

describe('a Redis that stops answering (a redis-server of its own, paused)', () => {
  it('costs one limit, then sends nothing but one PING until Redis answers again, then commands flow', async () => {
    const own = await startOwnRedis();
    open.push({ close: () => own.stop() });
    const proxy = await countingProxy(own.port);
    open.push(proxy);
    const lines: string[] = [];
    const log = { warn: (m: string) => lines.push(m), info: (m: string) => lines.push(m) };
    const redis = connect(proxy.url, 300, log, 100);
    expect(await redisReady(redis, 10_000)).toBe(true);
    await redis.set('k', '1');

    own.pause();
    await expect(redis.get('k')).rejects.toThrow(/Redis did not answer get within 300 ms/);
    expect(redisSilent(redis)).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/^Redis did not answer get within 300 ms: nothing is sent to it/)]);
    const tripped = proxy.commands.lastIndexOf('GET') + 1;
    // Every use of the connection is refused at once, unsent, whatever the command.
    const refused = await Promise.all(
      [
        () => redis.get('k'),
        () => redis.set('k', '2'),
        () => redis.eval('return 1', 0),
        () => redis.pttl('k'),
        () => redis.ping(),
      ].map((call) =>
        call().then(
          () => 'answered',
          (err: unknown) => err,
        ),
      ),
    );
    for (const err of refused) expect(err).toBeInstanceOf(RedisNotAnswering);
    expect(await redisAnswers(redis)).toBe(false);
    // Five probe intervals: the one PING still unanswered is not sent again.
    await new Promise((r) => setTimeout(r, 500));
    expect(proxy.commands.slice(tripped)).toEqual(['PING']);

    own.resume();
    await vi.waitFor(() => expect(redisSilent(redis)).toBe(false), { timeout: 5_000 });
    expect(await redis.get('k')).toBe('1');
    // The PING that waited out the pause was answered late and did not count; the next one did.
    expect(proxy.commands.slice(tripped)).toEqual(['PING', 'PING', 'GET']);
    expect(lines).toEqual([lines[0], 'Redis answers again']);
  });
});
