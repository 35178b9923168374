// The instance's Redis connection (decision 1010): a command without an answer fails after the limit,
// so a Redis that stops answering costs seconds, not a hang; and a process that was busy past the limit
// (PGlite holds the event loop under load) does not take an answer that came in time for a silent Redis.
// Against the real Redis at 127.0.0.1:6379 (or TEST_REDIS_URL) through a pass-through that can go
// silent; only PING is sent, no key is read or written.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedis, redisReady } from './redis';
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
  for (const o of open) await o.close();
  open = [];
});

function connect(url: string, commandTimeoutMs: number): Redis {
  const redis = connectRedis(url, quiet, { commandTimeoutMs });
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
  });

  it('takes an answer that came in time while the process was busy past the limit', async () => {
    const redis = connect(`redis://${real.host}`, 200);
    expect(await redisReady(redis, 10_000)).toBe(true);
    const answer = redis.ping();
    // The event loop is held well past the limit; Redis answers meanwhile.
    const until = Date.now() + 1_000;
    while (Date.now() < until);
    expect(await answer).toBe('PONG');
  });
});
