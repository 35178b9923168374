// Issue 42, item 5: SIGTERM under load. A real server process (test/draining-server.ts, with main.ts's
// drain) gets a burst of requests over kept-alive and new connections, some of them slow (their bodies
// arrive after the listener has closed), and SIGTERM while they are in flight. Every request sent before
// the signal is answered (none reset), readiness answers 503 on new connections during SHUTDOWN_DELAY,
// then new connections are refused, idle kept-alive connections are closed, and the process exits 0.
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, createScratchDatabase } from './test/helpers';
import { killServer, spawnServer } from './test/spawn-server';

let dataDir: string;
let child: ChildProcess | null = null;
let dropDatabase: (() => Promise<void>) | null = null;
const agents: http.Agent[] = [];

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dir-drain-'));
});

afterAll(async () => {
  for (const agent of agents) agent.destroy();
  await killServer(child);
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Server {
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const extra: Record<string, string> = {};
  if (backend === 'postgres') {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'drain');
    extra.DATABASE_URL = scratch.url;
    dropDatabase = scratch.drop;
  }
  const server = await spawnServer('src/server/test/draining-server.ts', {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: crypto.randomBytes(16).toString('hex'),
    LOG_LEVEL: 'silent',
    // The burst comes from one address: no route cap may answer it 429.
    RATE_LIMIT_SCALE: '1000',
    ...extra,
    ...env,
  });
  child = server.proc;
  return { port: server.port, exited: server.exited };
}

interface Answer {
  status: number;
  connection: string | undefined;
}

interface Sent {
  /** Resolves once the request (for a slow one: its head and the first half of its body) is on the wire. */
  sent: Promise<void>;
  /** The answer, or the error the client saw (ECONNRESET, socket hang up...). */
  answer: Promise<Answer | { error: string }>;
  /** A slow request: sends the rest of its body. */
  finish?: () => void;
}

const DIRECTORY_BODY = JSON.stringify({ country: 'united-kingdom' });

function send(port: number, o: { agent: http.Agent | false; path: string; body?: string; slow?: boolean }): Sent {
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: o.path,
    method: o.body === undefined ? 'GET' : 'POST',
    agent: o.agent,
    headers: o.body === undefined ? {} : { 'content-type': 'application/json', 'content-length': o.body.length },
  });
  const answer = new Promise<Answer | { error: string }>((resolve) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
      res.once('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.once('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
  if (!o.slow) {
    const sent = new Promise<void>((resolve) => req.once('finish', () => resolve()));
    req.end(o.body);
    return { sent, answer };
  }
  const half = Math.floor(o.body!.length / 2);
  const sent = new Promise<void>((resolve) => req.write(o.body!.slice(0, half), () => resolve()));
  return { sent, answer, finish: () => req.end(o.body!.slice(half)) };
}

/** A keep-alive agent holding `sockets` open, idle connections to the server. */
async function warmAgent(port: number, sockets: number): Promise<{ agent: http.Agent; sockets: Socket[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  agents.push(agent);
  const answers = await Promise.all(
    Array.from({ length: sockets }, () => send(port, { agent, path: '/api/health/live' }).answer),
  );
  expect(answers.every((a) => 'status' in a && a.status === 200)).toBe(true);
  const free = Object.values(agent.freeSockets).flat() as Socket[];
  expect(free).toHaveLength(sockets);
  return { agent, sockets: free };
}

/** Readiness on a new connection: its status, or the error of the connection. */
async function readinessOnNewConnection(port: number) {
  return send(port, { agent: false, path: '/api/health/ready' }).answer;
}

describe(`SIGTERM under load (${backend})`, { timeout: 120_000 }, () => {
  it('answers every request sent before the signal, says 503 on readiness to new connections during SHUTDOWN_DELAY, then closes', async () => {
    const server = await startServer({ SHUTDOWN_DELAY: '1', SHUTDOWN_TIMEOUT: '20' });
    const { port } = server;
    expect(await readinessOnNewConnection(port)).toMatchObject({ status: 200 });

    // Kept-alive connections, idle when the burst starts: each burst request goes on one of them.
    const fast = await Promise.all([1, 2, 3, 4].map(() => warmAgent(port, 6)));
    const slowAgent = await warmAgent(port, 3);
    // Kept-alive connections that get no request at all: the drain must close them.
    const idle = await warmAgent(port, 3);
    const idleClosed = idle.sockets.map((s) => new Promise<void>((resolve) => s.once('close', () => resolve())));

    const burst: Array<Sent & { label: string }> = [];
    for (const [i, { agent }] of fast.entries())
      for (let n = 0; n < 6; n++) {
        const directory = n % 2 === 0;
        burst.push({
          label: `kept-alive ${i}.${n}`,
          ...send(port, {
            agent,
            path: directory ? '/api/directory/getDirectory?page=1' : '/api/health/live',
            body: directory ? DIRECTORY_BODY : undefined,
          }),
        });
      }
    for (let n = 0; n < 24; n++) {
      const directory = n % 2 === 0;
      burst.push({
        label: `new connection ${n}`,
        ...send(port, {
          agent: false,
          path: directory ? '/api/directory/getDirectory?page=1' : '/api/health/live',
          body: directory ? DIRECTORY_BODY : undefined,
        }),
      });
    }
    for (let n = 0; n < 6; n++)
      burst.push({
        label: `slow ${n}`,
        ...send(port, {
          agent: n < 3 ? slowAgent.agent : false,
          path: '/api/directory/getDirectory?page=1',
          body: DIRECTORY_BODY,
          slow: true,
        }),
      });
    await Promise.all(burst.map((r) => r.sent));
    child!.kill('SIGTERM');

    // New connections: accepted and told 503 during the delay, then refused once the listener is closed
    // (one that races the close may be reset: it was opened after the signal).
    const probes: Array<Answer | { error: string }> = [];
    for (;;) {
      const probe = await readinessOnNewConnection(port);
      probes.push(probe);
      if ('error' in probe && probe.error === 'ECONNREFUSED') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // The slow requests are still in flight (half their body sent): the idle connections are closed
    // all the same, by the drain (their keep-alive timeout is 60 s here).
    await Promise.all(idleClosed);

    for (const r of burst) r.finish?.();
    const answers = await Promise.all(burst.map(async (r) => ({ label: r.label, answer: await r.answer })));
    const failed = answers.filter(({ answer }) => 'error' in answer || answer.status >= 500);
    expect(failed, `${failed.length} of ${answers.length} requests sent before the signal`).toEqual([]);
    // Answered after the signal: each says its connection ends.
    for (const { label, answer } of answers.filter((a) => a.label.startsWith('slow')))
      expect(answer, label).toMatchObject({ connection: 'close' });

    const told = probes.filter((p) => 'status' in p && p.status === 503);
    expect(told.length, JSON.stringify(probes)).toBeGreaterThan(0);
    for (const p of told) expect(p).toMatchObject({ connection: 'close' });
    // Before the signal reached the server a probe may still have been answered 200; never anything else.
    expect(probes.filter((p) => 'status' in p && ![200, 503].includes(p.status))).toEqual([]);

    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
