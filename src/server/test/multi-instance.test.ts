// Issue 24, item 8: two app instances (server processes of their own) on one PostgreSQL, one Redis and
// one S3-compatible server, as an operator runs them behind a load balancer. What one instance does,
// the other sees; what must happen once happens once; a job survives the instance that held it.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { autoTopupRuns, media } from '../db/schema';
import { ENV_NAMES } from '../env';
import { hashPassword } from '../lib/password';
import { VIDEO_JOB } from '../modules/media/video.service';
import * as money from '../modules/money/money.service';
import { createAdvertiser, seedGeo } from './factories';
import { backend, createTestApp, type TestApp } from './helpers';
import { multipart, picture, videoWithLocation } from './media-files';
import { startS3, type TestS3 } from './s3';

const root = path.resolve(import.meta.dirname, '../../..');
const PRICE = 100;
/** The MediaStore reads S3_* (item 1): the parts that need shared media run once it does. */
const S3_WIRED = ENV_NAMES.includes('S3_BUCKET');

interface Instance {
  name: string;
  proc: ChildProcess;
  base: string;
  lines: string[];
  exited: Promise<number | null>;
}

let t: TestApp;
let s3: TestS3 | undefined;
let env: Record<string, string>;
const instances: Instance[] = [];
const dataDirs: string[] = [];

async function startInstance(name: string): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `multi-${name}-`));
  dataDirs.push(dataDir);
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/test/server-process.ts'], {
    cwd: root,
    env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    readline.createInterface({ input: proc.stdout! }).on('line', (line) => {
      lines.push(line);
      const m = /^listening (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    void exited.then((code) => reject(new Error(`instance ${name} exited with ${code}`)));
  });
  const instance = { name, proc, base: `http://127.0.0.1:${port}`, lines, exited };
  instances.push(instance);
  return instance;
}

/** A browser's requests to one instance: cookies kept, the CSRF header echoed, its own address. */
function client(address: string) {
  const jar: Record<string, string> = {};
  return {
    jar,
    async call(instance: Instance, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
      const isJson = body !== undefined && !(body instanceof Uint8Array);
      const res = await fetch(instance.base + url, {
        method,
        headers: {
          'x-forwarded-for': address,
          cookie: Object.entries(jar)
            .map(([k, v]) => `${k}=${v}`)
            .join('; '),
          ...(jar.csrf ? { 'x-csrf-token': jar.csrf } : {}),
          ...(isJson ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: isJson ? JSON.stringify(body) : (body as BodyInit | undefined),
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair.indexOf('=');
        jar[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      return res;
    },
  };
}

/** Redis database 7 of TEST_REDIS_URL's server (no other test uses it): limit keys counted here stay here. */
function redisUrl(): string {
  const url = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = '/7';
  return url.href;
}

/** Files under a directory, recursively (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

const address = () => `10.${crypto.randomInt(255)}.${crypto.randomInt(255)}.${crypto.randomInt(1, 255)}`;

describe.runIf(backend === 'postgres')('two instances on one PostgreSQL, Redis and S3 server', () => {
  let a: Instance;
  let b: Instance;
  const password = 'a long enough password';
  let owner: { id: number; username: string };

  beforeAll(async () => {
    t = await createTestApp({ PRICE_STANDARD_TOPUP: String(PRICE) });
    await seedGeo(t.ctx);
    s3 = S3_WIRED ? await startS3() : undefined;
    // Each run's scratch database numbers its accounts from 1 again: limit counts and slot marks an earlier
    // run left under the same ids would refuse this run's logins. Database 7 is this test's alone.
    const redis = new Redis(redisUrl(), { lazyConnect: true });
    await redis.connect();
    await redis.flushdb();
    redis.disconnect();
    env = {
      NODE_ENV: 'test',
      DATABASE_URL: t.ctx.env.DATABASE_URL!,
      REDIS_URL: redisUrl(),
      SESSION_SECRET: t.ctx.secret,
      TRUST_PROXY: '127.0.0.1',
      PRICE_STANDARD_TOPUP: String(PRICE),
      JOB_LEASE_SECONDS: '3',
      SHUTDOWN_TIMEOUT: '5',
      LOG_LEVEL: 'silent',
      ...s3?.env,
    };
    const { account } = await createAdvertiser(t.ctx, {
      username: `multi_${crypto.randomBytes(4).toString('hex')}`,
      passwordHash: await hashPassword(password),
      about: 'Two instances.',
    });
    owner = { id: account.id, username: account.username };
    [a, b] = await Promise.all([startInstance('a'), startInstance('b')]);
  }, 300_000);

  afterAll(async () => {
    for (const i of instances) if (i.proc.exitCode === null && i.proc.signalCode === null) i.proc.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
    await t?.close();
    await s3?.close();
    for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('keeps a session made on one instance on the other', async () => {
    const browser = client(address());
    const login = await browser.call(a, 'POST', '/api/auth/login', { login: owner.username, password });
    expect(login.status).toBe(200);
    expect((await browser.call(b, 'GET', '/api/auth/links')).status).toBe(200);
    // A state-changing call with the CSRF token made on A, on B.
    expect((await browser.call(b, 'POST', '/api/app/ping', {})).status).toBe(200);
    expect((await client(address()).call(b, 'GET', '/api/auth/links')).status).toBe(401);
  });

  it('counts the login limit of an account across both instances', async () => {
    const { account } = await createAdvertiser(t.ctx, {
      username: `limit_${crypto.randomBytes(4).toString('hex')}`,
      passwordHash: await hashPassword(password),
    });
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await client(address()).call(i % 2 ? b : a, 'POST', '/api/auth/login', {
        login: account.username,
        password: `wrong ${i}`,
      });
      codes.push(res.status);
    }
    expect(codes).toEqual([422, 422, 422, 422, 422, 429]);
  });

  it('runs a periodic task once across the instances', async () => {
    // Both tried every task 2 s after their start.
    await expect
      .poll(() => [a, b].flatMap((i) => i.lines).filter((l) => l === 'task refresh search words').length, {
        timeout: 30_000,
      })
      .toBe(1);
    await new Promise((r) => setTimeout(r, 3_000));
    expect([a, b].flatMap((i) => i.lines).filter((l) => l === 'task refresh search words')).toHaveLength(1);
    // Settling open payments runs at every start (crash recovery), on each.
    expect(a.lines).toContain('task settle open payments');
    expect(b.lines).toContain('task settle open payments');
  });

  it('fires an auto-topup slot once', async () => {
    const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
    const { account } = await createAdvertiser(t.ctx, {
      username: `slot_${crypto.randomBytes(4).toString('hex')}`,
      passwordHash: await hashPassword(password),
    });
    await money.adjustBalance(t.ctx, {
      actor: { id: admin },
      userId: account.id,
      amount: 5 * PRICE,
      reason: 'fund',
      idempotencyKey: `fund-${account.id}`,
    });
    const browser = client(address());
    expect((await browser.call(a, 'POST', '/api/auth/login', { login: account.username, password })).status).toBe(200);
    // The next whole minute in the profile's city (London), every day.
    const slot = DateTime.now().setZone('Europe/London').plus({ minutes: 1 });
    const res = await browser.call(b, 'POST', `/api/auto-topup/setTimer/${account.id}`, {
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      time: slot.toFormat('HH:mm'),
    });
    expect(res.status, await res.text()).toBe(200);
    // The slots task runs once a minute across both instances.
    const runs = () => t.ctx.db.select().from(autoTopupRuns).where(eq(autoTopupRuns.userId, account.id));
    await expect.poll(async () => (await runs()).length, { timeout: 200_000, interval: 2_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 5_000));
    expect(await runs()).toHaveLength(1);
    expect((await runs())[0].status).toBe('succeeded');
    expect(await money.balanceOf(t.ctx, account.id)).toBe(4 * PRICE);
  }, 300_000);

  it.runIf(S3_WIRED)(
    'serves an upload made through one instance from the other, and a delete through one from neither',
    async () => {
      const browser = client(address());
      expect((await browser.call(a, 'POST', '/api/auth/login', { login: owner.username, password })).status).toBe(200);
      const form = multipart(await (await picture({ seed: 24 })).jpeg().toBuffer(), {
        filename: 'p.jpg',
        contentType: 'image/jpeg',
      });
      const up = await browser.call(a, 'POST', '/api/upload/photo/gallery', form.payload, form.headers);
      expect(up.status, await up.clone().text()).toBe(200);
      const [row] = await t.ctx.db.select().from(media).where(eq(media.userId, owner.id));
      const profile = await (await fetch(`${b.base}/api/getProfile/${owner.id}`)).json();
      // Every picture address in the answer, srcset entries one by one (relative /media/... or the CDN's).
      const urls = [...new Set(JSON.stringify(profile).match(/(?:https?:\/\/[^\s",]+)?\/media\/[^\s",]+/g))];
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) {
        for (const i of [a, b]) {
          const res = await fetch(url.startsWith('/') ? i.base + url : url);
          expect(res.status, `${i.name} ${url}`).toBe(200);
        }
      }
      // Nothing went to either instance's own disk.
      for (const dir of dataDirs) expect(filesUnder(path.join(dir, 'media')), dir).toEqual([]);
      const del = await browser.call(b, 'POST', `/api/edit/deleteMedia/${owner.id}`, { id: row.id });
      expect(del.status, await del.clone().text()).toBe(200);
      for (const url of urls)
        for (const i of [a, b]) expect((await fetch(url.startsWith('/') ? i.base + url : url)).status).toBe(404);
    },
  );

  it.runIf(S3_WIRED)(
    'converts a video accepted by one instance that is killed once it has claimed the job',
    async () => {
      // B drains and exits 0 (SIGTERM), so A is the one that claims the job.
      b.proc.kill('SIGTERM');
      expect(await b.exited).toBe(0);
      const browser = client(address());
      expect((await browser.call(a, 'POST', '/api/auth/login', { login: owner.username, password })).status).toBe(200);
      const form = multipart(await videoWithLocation(), { filename: 'clip.mp4', contentType: 'video/mp4' });
      const up = await browser.call(a, 'POST', `/api/upload/video/${owner.id}`, form.payload, form.headers);
      expect(up.status, await up.clone().text()).toBe(200);
      const claimed = () =>
        queryRows<{ attempts: number; locked: boolean }>(
          t.ctx.db,
          sql`select attempts, locked_until is not null as locked from jobs where kind = ${VIDEO_JOB} order by id desc limit 1`,
        ).then((r) => r[0]);
      await expect.poll(async () => (await claimed())?.locked, { timeout: 30_000, interval: 20 }).toBe(true);
      a.proc.kill('SIGKILL');
      await a.exited;
      const c = await startInstance('c');
      const video = () =>
        t.ctx.db
          .select()
          .from(media)
          .where(eq(media.userId, owner.id))
          .then((rows) => rows.find((r) => r.type === 'video'));
      await expect.poll(async () => (await video())?.status, { timeout: 120_000, interval: 500 }).toBe('pending');
      expect((await claimed()).attempts).toBe(2);
      c.proc.kill('SIGTERM');
      expect(await c.exited).toBe(0);
    },
    240_000,
  );
});
