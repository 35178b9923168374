// Issue 42 items 1 and 6 (decision 1017): the real server as a child process on a PostgreSQL database of
// its own, under 20 clients (directory reads, signed-in cart transactions, the background worker), while the
// test ends every backend of that database again and again (pg_terminate_backend, filtered by its datname:
// no one else's). Counted: process exits (0), answers other than 2xx/4xx/503 (0), 503s carrying Retry-After;
// afterwards the same calls answer as before. Then the database is made unreachable for new connections
// (the server's own connections ended, new ones refused): 503 with Retry-After, never 500, and back to 200
// when it is reachable again.
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime } from '../bootstrap';
import { loadEnv } from '../env';
import { httpClient, type ApiAnswer } from '../test/api-client';
import { createAdvertiser, createSession, seedGeo, type Session } from '../test/factories';
import { backend, createScratchDatabase } from '../test/helpers';
import { killServer, spawnServer } from '../test/spawn-server';

describe.runIf(backend === 'postgres')('lost PostgreSQL connections (decision 1017)', { timeout: 240_000 }, () => {
  let dataDir: string;
  let env: Record<string, string>;
  let databaseName: string;
  let drop: () => Promise<void>;
  let admin: pg.Client;
  let child: ChildProcess | null = null;
  let base = '';
  let output = () => '';
  const sessions: Session[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dir-lost-'));
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'lost');
    drop = scratch.drop;
    databaseName = new URL(scratch.url).pathname.slice(1);
    env = {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: scratch.url,
      SESSION_SECRET: crypto.randomBytes(16).toString('hex'),
      LOG_LEVEL: 'silent',
      RATE_LIMIT_SCALE: '1000',
    };
    const runtime = await openRuntime(loadEnv(env));
    try {
      await seedGeo(runtime.ctx);
      for (let i = 0; i < 6; i++) {
        const a = await createAdvertiser(runtime.ctx, { listed: true });
        sessions.push(await createSession(runtime.ctx, a.account.id));
      }
    } finally {
      await runtime.close();
    }
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();

    const server = await spawnServer('src/server/test/server-process.ts', env);
    child = server.proc;
    output = server.output;
    base = server.base;
  });

  afterAll(async () => {
    await killServer(child);
    await admin?.query(`alter database "${databaseName}" allow_connections true`).catch(() => undefined);
    await admin?.end();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Ends every backend of the server's database (never the test's own connection), returns how many. */
  async function terminateBackends(): Promise<number> {
    const res = await admin.query<{ ended: boolean }>(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = $1 and pid <> pg_backend_pid()`,
      [databaseName],
    );
    return res.rows.filter((r) => r.ended).length;
  }

  const alive = () => child!.exitCode === null && child!.signalCode === null;

  /** One client's round: a directory read, a profile read, and a signed-in cart transaction pair. */
  async function round(api: ReturnType<typeof httpClient>, session: Session, answers: ApiAnswer[]) {
    const calls: Array<Promise<ApiAnswer>> = [];
    calls.push(api('POST', '/api/directory/getDirectory', { body: { country: 'united-kingdom' } }));
    calls.push(api('GET', '/api/directory/countries'));
    for (const a of await Promise.allSettled(calls)) if (a.status === 'fulfilled') answers.push(a.value);
    const added = await api('POST', '/api/payment/addToCart', { session, body: { uid: 'standard_topup' } });
    answers.push(added);
    const cart = await api('GET', '/api/payment/getCart', { session });
    answers.push(cart);
    const items =
      cart.status === 200 ? cart.json<{ data: { items: Array<{ uid: string }> } }>().data.items.map((i) => i.uid) : [];
    for (const uid of items) answers.push(await api('POST', '/api/payment/removeCartItem', { session, body: { uid } }));
  }

  it('survives every backend of its database ended under 20 clients: 0 exits, 0 answers outside 2xx/4xx/503', async () => {
    const api = httpClient(base, 40);
    const answers: ApiAnswer[] = [];
    let stop = false;
    const clients = Array.from({ length: 20 }, async (_, i) => {
      while (!stop) await round(api, sessions[i % sessions.length], answers).catch(() => undefined);
    });
    let ended = 0;
    for (let r = 0; r < 8; r++) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      ended += await terminateBackends();
    }
    stop = true;
    await Promise.all(clients);
    api.close();

    expect(alive(), `the server exited:\n${output()}`).toBe(true);
    expect(ended).toBeGreaterThan(8);
    expect(answers.length).toBeGreaterThan(100);
    const statuses = answers.map((a) => a.status);
    const wrong = answers.filter((a) => !(a.status < 500 || a.status === 503));
    expect(wrong.map((a) => `${a.status} ${a.body}`)).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503)) expect(a.headers['retry-after']).toMatch(/^\d+$/);
    // Most calls still succeed: a read that lost its connection runs once more on another.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(answers.length / 2);

    // Afterwards the pool has connected anew: the same calls answer as before.
    const after = httpClient(base, 4);
    const page = await after('POST', '/api/directory/getDirectory', { body: { country: 'united-kingdom' } });
    expect(page.status).toBe(200);
    const cart = await after('GET', '/api/payment/getCart', { session: sessions[0] });
    expect(cart.status).toBe(200);
    after.close();
  });

  it('answers 503 with Retry-After while the database refuses connections, and 200 once it is back', async () => {
    const api = httpClient(base, 4);
    await admin.query(`alter database "${databaseName}" allow_connections false`);
    try {
      await terminateBackends();
      const during: ApiAnswer[] = [];
      for (let i = 0; i < 10; i++) {
        during.push(await api('POST', '/api/directory/getDirectory', { body: { country: 'united-kingdom' } }));
        during.push(await api('GET', '/api/payment/getCart', { session: sessions[1] }));
        during.push(
          await api('POST', '/api/payment/addToCart', { session: sessions[1], body: { uid: 'standard_topup' } }),
        );
      }
      // A directory answer kept in the process may still be served; nothing that needs the database is 500.
      expect(during.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
      const unavailable = during.filter((a) => a.status === 503);
      expect(unavailable.length).toBeGreaterThanOrEqual(20);
      for (const a of unavailable) {
        expect(a.headers['retry-after']).toBe('5');
        expect(a.json<{ message: string }>().message).toMatch(/try again/i);
      }
    } finally {
      await admin.query(`alter database "${databaseName}" allow_connections true`);
    }
    expect((await api('GET', '/api/payment/getCart', { session: sessions[1] })).status).toBe(200);
    expect(alive()).toBe(true);
    api.close();
  });
});
