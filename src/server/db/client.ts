// One Drizzle database over PGlite (embedded default) or PostgreSQL (DATABASE_URL). Both speak the same
// SQL, so every repository is written once.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import lockfile from 'proper-lockfile';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export class DatabaseLockedError extends Error {
  constructor(dir: string) {
    super(
      `The embedded database in ${dir} is already open in another process. ` +
        'Stop the other server, or give this one its own DATA_DIR (or a DATABASE_URL).',
    );
    this.name = 'DatabaseLockedError';
  }
}

export interface OpenOptions {
  /** postgres:// URL; when absent PGlite is used. */
  url?: string;
  /** Directory of the PGlite data; absent means in memory (tests). */
  pgliteDir?: string;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) return openPostgres(opts.url);
  return openPglite(opts.pgliteDir);
}

async function openPglite(dir?: string): Promise<Database> {
  let release: (() => Promise<void>) | undefined;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    // PGlite has no cross-process locking of its own; two writers would corrupt the files.
    try {
      release = await lockfile.lock(dir, { lockfilePath: path.join(dir, '.lock'), stale: 15_000, update: 5_000 });
    } catch (err) {
      if ((err as { code?: string }).code === 'ELOCKED') throw new DatabaseLockedError(dir);
      throw err;
    }
  }
  try {
    const client = await PGlite.create({ dataDir: dir, extensions: { pg_trgm, unaccent } });
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await client.exec('create extension if not exists pg_trgm; create extension if not exists unaccent;');
    await migratePglite(db as never, { migrationsFolder });
    return {
      db,
      kind: 'pglite',
      async close() {
        await client.close();
        await release?.();
      },
    };
  } catch (err) {
    await release?.();
    throw err;
  }
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection can be cut by the server (restart, failover, admin). node-postgres then emits
  // 'error' on the pool, which would crash the process without a listener; the pool reconnects anyway.
  pool.on('error', (err) => console.warn(`PostgreSQL connection lost: ${err.message}`));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // Several instances (or test workers) may start at once: one migrates, the others wait.
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(727001)');
    await client.query(
      'create extension if not exists pg_trgm with schema public; create extension if not exists unaccent with schema public;',
    );
    await migratePg(drizzlePg(client, { schema }) as never, { migrationsFolder });
  } catch (err) {
    client.release();
    await pool.end();
    throw err;
  }
  await client.query('select pg_advisory_unlock(727001)');
  client.release();
  return {
    db,
    kind: 'postgres',
    async close() {
      await pool.end();
    },
  };
}

/** Raw SQL returning rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** The SQLSTATE of a database error, whichever driver (and wrapper) raised it. */
export function pgErrorCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.cause?.code ?? e?.code;
}
export const FOREIGN_KEY_VIOLATION = '23503';
