// Slow and idle clients cannot hold the server (issue 8, item 6): the limits of plugins/http-limits.ts,
// shortened here, close what a slow-body or idle-connection attack leaves open.
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestApp, type TestApp } from '../test/helpers';
import { HTTP_LIMITS } from './http-limits';

let t: TestApp;
let app: FastifyInstance;
let port: number;
const LIMITS = { idleMs: 600, keepAliveMs: 300, headersMs: 500, bodyMs: 400, perAddress: 5, checkEveryMs: 100 };

beforeAll(async () => {
  t = await createTestApp();
  app = await buildApp(t.ctx, { httpLimits: LIMITS });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await app.close();
  await t.close();
});

/** Opens a connection, writes `data`, and reports what came back and when the server closed it. */
function connect(data = '') {
  const started = performance.now();
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<{ answer: string; afterMs: number }>((resolve) =>
    socket.on('close', () => resolve({ answer, afterMs: performance.now() - started })),
  );
  if (data) socket.write(data);
  return { socket, closed };
}

describe('HTTP limits', () => {
  it('has production limits that bound every phase and cap connections', () => {
    expect(HTTP_LIMITS.headersMs).toBeLessThanOrEqual(HTTP_LIMITS.requestMs);
    expect(HTTP_LIMITS.bodyMs).toBeLessThan(HTTP_LIMITS.requestMs);
    expect(HTTP_LIMITS.requestMs).toBeGreaterThan(0);
    expect(HTTP_LIMITS.maxConnections).toBeGreaterThan(HTTP_LIMITS.perAddress);
    expect(app.server.requestTimeout).toBe(HTTP_LIMITS.requestMs);
    expect(app.server.maxConnections).toBe(HTTP_LIMITS.maxConnections);
  });

  it('ends a JSON body that arrives too slowly with 408 {message}', async () => {
    const { socket, closed } = connect(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"lo',
    );
    const drip = setInterval(() => socket.writable && socket.write(' '), 100);
    const { answer, afterMs } = await closed;
    clearInterval(drip);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.split('\r\n\r\n')[1]).toBe(JSON.stringify({ message: 'The request took too long.' }));
    expect(afterMs).toBeLessThan(5_000);
  });

  it('closes a connection that sends nothing, and one that never finishes its headers', async () => {
    const silent = connect();
    const half = connect('GET /api/health HTTP/1.1\r\nHost: x\r\n');
    const [a, b] = await Promise.all([silent.closed, half.closed]);
    expect(a.afterMs).toBeLessThan(5_000);
    expect(b.afterMs).toBeLessThan(5_000);
  });

  it('closes a kept-alive connection that asks nothing more', async () => {
    const { closed } = connect('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    const { answer, afterMs } = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(afterMs).toBeLessThan(5_000);
  });

  it(`refuses more than ${LIMITS.perAddress} open connections from one address`, async () => {
    const held = Array.from({ length: LIMITS.perAddress }, () => connect());
    await new Promise((r) => setTimeout(r, 50));
    const extra = connect('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    const { answer, afterMs } = await extra.closed;
    expect(answer).toBe('');
    expect(afterMs).toBeLessThan(LIMITS.idleMs);
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    // Once they are gone, the address is welcome again.
    const again = connect('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect((await again.closed).answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
