// Builds the real app in process on a fresh database: PGlite in memory, or an isolated schema of the
// PostgreSQL at TEST_DATABASE_URL (when the test project is "postgres").
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type BuildOptions } from '../app';
import { openRuntime } from '../bootstrap';
import type { AppContext } from '../context';
import { openDatabase, type Database } from '../db/client';
import { loadEnv } from '../env';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  dataDir: string;
  close(): Promise<void>;
}

export const backend = (process.env.TEST_DB_BACKEND ?? 'pglite') as 'pglite' | 'postgres';

/**
 * The migrated templates of src/server/test/templates.ts (vitest's globalSetup). Outside vitest (the
 * benches) there are none and every database is migrated from empty.
 */
function provided<K extends 'pgliteTemplate' | 'postgresTemplate'>(key: K): string | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

let pgliteImage: Blob | undefined;
/** The migrated PGlite image to open an in-memory database from, when the run has one. */
export function templateImage(): Blob | undefined {
  const file = provided('pgliteTemplate');
  if (!file) return undefined;
  pgliteImage ??= new Blob([fs.readFileSync(file)]);
  return pgliteImage;
}

export async function createTestApp(
  envOverrides: Record<string, string> = {},
  buildOptions: BuildOptions = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dir-test-'));
  const url = backend === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (backend === 'postgres' && !url) throw new Error('TEST_DATABASE_URL is required for the postgres project');
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: crypto.randomBytes(16).toString('hex'),
    LOG_LEVEL: 'silent',
    ...(url ? { DATABASE_URL: url } : {}),
    ...envOverrides,
  });
  // PostgreSQL: a database of its own per test file, dropped afterwards.
  const scratch = url ? await createScratchDatabase(url, 't') : null;
  if (scratch) env.DATABASE_URL = scratch.url;
  const runtime = await openRuntime(env, { inMemory: true, pgliteImage: url ? undefined : templateImage() });
  const app = await buildApp(runtime.ctx, buildOptions);
  await app.ready();
  return {
    app,
    ctx: runtime.ctx,
    dataDir,
    async close() {
      await app.close();
      await runtime.close();
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new database next to the one at `url`, and how to drop it: a copy of the migrated template when the
 * tests have one, else empty.
 */
export async function createScratchDatabase(url: string, prefix: string, template = provided('postgresTemplate')) {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  await adminQuery(url, template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => adminQuery(url, `drop database if exists "${name}" with (force)`) };
}

/** A migrated database without the app (geo and seed tests): PGlite in memory, or a scratch PostgreSQL. */
export async function openTestDatabase(prefix = 't'): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (backend !== 'postgres') return openDatabase({ pgliteImage: templateImage() });
  if (!url) throw new Error('TEST_DATABASE_URL is required for the postgres test project');
  const scratch = await createScratchDatabase(url, prefix);
  const database = await openDatabase({ url: scratch.url });
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

async function adminQuery(url: string, query: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** The stand-in for the built SPA's index.html in tests of server-rendered pages. */
export const SHELL_HTML =
  '<!doctype html><html lang="en"><head><title>Directory</title></head><body><div id="root"></div></body></html>';

/** A second app over `t`'s context that serves pages, from a client folder holding only `html` as index.html. */
export async function buildPagesApp(t: TestApp, html = SHELL_HTML): Promise<FastifyInstance> {
  const clientDir = path.join(t.dataDir, 'client');
  fs.mkdirSync(clientDir, { recursive: true });
  fs.writeFileSync(path.join(clientDir, 'index.html'), html);
  return buildApp(t.ctx, { serveClient: true, clientDir });
}
