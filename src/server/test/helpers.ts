// Builds the real app in process on a fresh database: PGlite in memory, or an isolated schema of the
// PostgreSQL at TEST_DATABASE_URL (when the test project is "postgres").
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app';
import { openRuntime } from '../bootstrap';
import type { AppContext } from '../context';
import { loadEnv } from '../env';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  dataDir: string;
  close(): Promise<void>;
}

export const backend = (process.env.TEST_DB_BACKEND ?? 'pglite') as 'pglite' | 'postgres';

export async function createTestApp(envOverrides: Record<string, string> = {}): Promise<TestApp> {
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
  const dbName = url ? `t_${crypto.randomBytes(6).toString('hex')}` : undefined;
  if (url && dbName) await adminQuery(url, `create database "${dbName}"`);
  if (url && dbName) env.DATABASE_URL = withDatabase(url, dbName);
  const runtime = await openRuntime(env, { inMemory: true });
  const app = await buildApp(runtime.ctx);
  await app.ready();
  return {
    app,
    ctx: runtime.ctx,
    dataDir,
    async close() {
      await app.close();
      await runtime.close();
      if (url && dbName) await adminQuery(url, `drop database if exists "${dbName}" with (force)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
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
