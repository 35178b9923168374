// One Drizzle database over PGlite (embedded default) or PostgreSQL (DATABASE_URL). Both speak the same
// SQL, so every repository is written once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
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
  constructor(dir: string, holder?: { pid: number; host: string }) {
    const who = holder
      ? holder.host === os.hostname()
        ? ` (process ${holder.pid}, still running)`
        : ` (process ${holder.pid} on ${holder.host})`
      : '';
    super(
      `The embedded database in ${dir} is already open in another process${who}. ` +
        'Stop that server first, or give this one its own DATA_DIR (or a DATABASE_URL). ' +
        'A lock left by a crash on this machine is taken over by itself.',
    );
    this.name = 'DatabaseLockedError';
  }
}

/** Data directories this process holds: a lock naming our own pid is stale unless it is one of them. */
const heldHere = new Set<string>();

export interface OpenOptions {
  /** postgres:// URL; when absent PGlite is used. */
  url?: string;
  /** Directory of the PGlite data; absent means in memory (tests). */
  pgliteDir?: string;
  /** In memory only: an image of a migrated data directory to start from (the tests' template). */
  pgliteImage?: Blob;
  /** PostgreSQL connections of this process (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** Whether the hot list statements are named, so PostgreSQL keeps their plans (DATABASE_PREPARED_STATEMENTS). */
  preparedStatements?: boolean;
}

/**
 * Named (server-side prepared) statements for the directory's page statements (docs/decisions/0740): a
 * named statement is parsed once per connection (a country page's statement took 2-7 ms to plan and 1-8 ms
 * to run); the list pages' are planned once too, on connections of their own (genericPlansOf). The
 * name is a hash of the text, so one name is always one text on every connection; at most
 * MAX_NAMED_STATEMENTS texts are named in a process (each connection keeps what it prepared until it
 * closes), the others run unnamed. PGlite ignores the name.
 */
const preparedStatements = { on: true, names: new Set<string>() };
export const MAX_NAMED_STATEMENTS = 200;

/** The name to prepare this statement text under, or undefined to run it unnamed. */
export function statementName(text: string): string | undefined {
  if (!preparedStatements.on) return undefined;
  const name = `d_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  if (preparedStatements.names.has(name)) return name;
  if (preparedStatements.names.size >= MAX_NAMED_STATEMENTS) return undefined;
  preparedStatements.names.add(name);
  return name;
}

/**
 * Forgets which texts were named (the cap's count): the server's tests share a worker's modules
 * (vitest.config.ts, isolate: false), so one file's pages would count against the next file's cap. A name
 * is always the same text, so a name given again is never another statement's.
 */
export function forgetStatementNames() {
  preparedStatements.names.clear();
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.preparedStatements !== undefined) preparedStatements.on = opts.preparedStatements;
  if (opts.url) return openPostgres(opts.url, opts.poolSize ?? 10);
  return openPglite(opts.pgliteDir, opts.pgliteImage);
}

/**
 * The data directory's lock (docs/decisions/0001): a lock directory kept fresh every 5 s, stale after 15 s,
 * plus a note of the holder's process id. A holder that died on this host (a crash, SIGKILL) is known at
 * once, so a restart does not wait out the 15 s.
 */
async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dir, '.lock');
  const ownerPath = path.join(dir, '.lock-owner');
  const take = () => lockfile.lock(dir, { lockfilePath: lockPath, stale: 15_000, update: 5_000 });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (err) {
    if ((err as { code?: string }).code !== 'ELOCKED' || !holderIsGone(ownerPath, dir)) throw lockError(err, dir);
    fs.rmSync(lockPath, { recursive: true, force: true });
    release = await take().catch((again: unknown) => {
      throw lockError(again, dir);
    });
  }
  fs.writeFileSync(ownerPath, JSON.stringify({ pid: process.pid, host: os.hostname() }));
  heldHere.add(path.resolve(dir));
  return async () => {
    heldHere.delete(path.resolve(dir));
    fs.rmSync(ownerPath, { force: true });
    await release();
  };
}

function readOwner(dir: string): { pid: number; host: string } | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(dir, '.lock-owner'), 'utf8')) as {
      pid?: unknown;
      host?: unknown;
    };
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host }
      : undefined;
  } catch {
    return undefined;
  }
}

const lockError = (err: unknown, dir: string) =>
  (err as { code?: string }).code === 'ELOCKED' ? new DatabaseLockedError(dir, readOwner(dir)) : err;

/**
 * The lock's holder ran on this host and its process no longer exists. A holder with our own pid that
 * is not us (a container restarted with the same pid) is gone too.
 */
function holderIsGone(ownerPath: string, dir: string): boolean {
  let owner: { pid?: unknown; host?: unknown };
  try {
    owner = JSON.parse(fs.readFileSync(ownerPath, 'utf8'));
  } catch {
    return false;
  }
  if (owner.host !== os.hostname() || typeof owner.pid !== 'number') return false;
  if (owner.pid === process.pid) return !heldHere.has(path.resolve(dir));
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    return (err as { code?: string }).code === 'ESRCH';
  }
}

async function openPglite(dir?: string, image?: Blob): Promise<Database> {
  let release: (() => Promise<void>) | undefined;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    // PGlite has no cross-process locking of its own; two writers would corrupt the files.
    release = await lockDataDir(dir);
  }
  try {
    const client = await PGlite.create({
      dataDir: dir,
      loadDataDir: dir ? undefined : image,
      extensions: { pg_trgm, unaccent },
    });
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await client.exec('create extension if not exists pg_trgm; create extension if not exists unaccent;');
    await migratePglite(db as never, { migrationsFolder });
    watches.set(db, await watchCommits(client));
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

/**
 * PGlite only (docs/decisions/0720): what this process knows of the commits that changed the directory.
 * Every statement goes through the one PGlite instance of this process; in the session that says
 * `directory.watch = on`, the version trigger notifies `directory_version` with the commit (migrations
 * 0008, 0009), and PGlite calls its listeners in a microtask queued while the COMMIT runs, so before the
 * writer's own promise resolves and before any request that arrives afterwards is handled.
 * `generation` moves then, and whenever a commit may have gone unseen: a statement whose results PGlite
 * did not parse (execProtocolRawStream) or stopped parsing (an error), or one that may have ended the
 * watch (UNLISTEN, DISCARD, RESET, or naming the setting), after which it is armed again before the
 * next read. `profile_live` tells of a profile whose view count or last-seen moment changed.
 */
export class CommitWatch {
  /** Moves on every commit that changed the directory, and whenever one may have gone unseen. */
  generation = 0;
  private armed = true;
  private liveListeners = new Set<(profileId: number) => void>();
  constructor(private readonly client: PGlite) {}

  /** Arms the watch again if something may have ended it (before a read of the version). */
  async ensureArmed() {
    if (this.armed) return;
    this.armed = true;
    try {
      await this.client.exec(ARM);
    } catch (err) {
      this.armed = false;
      throw err;
    }
  }

  /** A commit may have gone unseen (`disarmed`: and the watch may be off). */
  lost(disarmed: boolean) {
    this.generation++;
    if (disarmed) this.armed = false;
  }

  /** Calls `listener` with each profile whose live figures changed (until the returned function). */
  onLive(listener: (profileId: number) => void) {
    this.liveListeners.add(listener);
    return () => this.liveListeners.delete(listener);
  }

  notified(channel: string, payload: string) {
    if (channel === 'directory_version') this.generation++;
    else if (channel === 'profile_live') for (const l of this.liveListeners) l(Number(payload));
  }
}

const ARM = "LISTEN directory_version; LISTEN profile_live; SET directory.watch = 'on'";
const watches = new WeakMap<Db, CommitWatch>();

/** The commit watch of an embedded database (undefined on PostgreSQL, where other processes write too). */
export const commitWatchOf = (db: Db | Tx): CommitWatch | undefined => watches.get(db as Db);

async function watchCommits(client: PGlite): Promise<CommitWatch> {
  const watch = new CommitWatch(client);
  client.onNotification((channel, payload) => watch.notified(channel, payload));
  // Every statement, whichever API sent it, runs through execProtocolRawSync (PGlite calls it on the
  // instance, so this own property is what runs). execProtocolRawStream hands the results to its caller
  // unparsed, notifications included: a statement sent that way counts as a commit unseen.
  let streaming = 0;
  const rawSync = client.execProtocolRawSync.bind(client);
  client.execProtocolRawSync = (message: Uint8Array) => {
    try {
      return rawSync(message);
    } finally {
      const disarmed = mayDisarm(message);
      if (streaming > 0 || disarmed) watch.lost(disarmed);
    }
  };
  const rawStream = client.execProtocolRawStream.bind(client);
  client.execProtocolRawStream = (...args: Parameters<PGlite['execProtocolRawStream']>) => {
    // The stream's statement runs synchronously inside this call, before its first await.
    streaming++;
    try {
      return rawStream(...args);
    } finally {
      streaming--;
    }
  };
  // After a statement's error PGlite reads none of the messages that follow it, the notifications sent
  // before ReadyForQuery included (a COMMIT then a failing statement in one simple query): any error
  // counts as a commit unseen. It is known before the caller's promise settles.
  for (const method of ['execProtocol', 'execProtocolStream'] as const) {
    const send = client[method].bind(client) as (...a: unknown[]) => Promise<unknown>;
    (client as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      try {
        return await send(...args);
      } catch (err) {
        watch.lost(false);
        throw err;
      }
    };
  }
  await client.exec(ARM);
  return watch;
}

/**
 * The statement may end the watch: it names UNLISTEN, DISCARD, RESET or the setting (or merely the words,
 * in a value: one more read of the version).
 */
function mayDisarm(message: Uint8Array): boolean {
  const text = Buffer.from(message.buffer, message.byteOffset, message.byteLength).toString('latin1');
  return MAY_DISARM.test(text) && MAY_DISARM.test(text.replaceAll(ARM, ''));
}
const MAY_DISARM = /listen|discard|reset|watch/i;

/**
 * How long an idle connection is kept (docs/decisions/0756): 5 minutes, not pg-pool's 10 s. A new
 * connection plans everything again: the version read's function (its statements' plans are kept per
 * connection) took 35 ms on a new one, 4 ms on its next reads, 0.8 ms once planned, and the list pages'
 * named statements are prepared again (11 ms for the first). At 10 s, the connections a burst opened were
 * gone after any lull, and the next burst paid that on the visitors' requests.
 */
export const IDLE_KEEP_MS = 300_000;

/**
 * A pool whose connections have had `settings` applied before it hands them out. A refusal is only
 * logged: the settings are speed, not correctness.
 */
function poolOf(url: string, max: number, settings: string) {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: IDLE_KEEP_MS,
    // A database that does not answer the connection (a black-holed host, a full PgBouncer queue) fails the
    // request with 503 after this, instead of holding it for ever (decision 1017).
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool awaits the hook's promise; @types/pg says void
    onConnect: async (conn) => {
      await conn.query(settings).catch((err: Error) => {
        console.warn(`PostgreSQL session setting refused: ${err.message}`);
      });
    },
  });
  // An idle connection can be cut by the server (restart, failover, admin). node-postgres then emits
  // 'error' on the pool, which would crash the process without a listener; the pool reconnects anyway.
  pool.on('error', (err) => console.warn(`PostgreSQL connection lost: ${err.message}`));
  // A connection cut while it is checked out (a transaction between two statements, the migration's
  // client) emits 'error' on the client itself, and pg-pool takes its own listener off at checkout: without
  // one of ours the process would end (decision 1017). The statement that was running, or the next one,
  // fails; the client is not queryable any more and pg-pool drops it when it is released.
  pool.on('connect', (client) => {
    client.on('error', (err) => console.warn(`PostgreSQL connection lost while in use: ${err.message}`));
  });
  markConnectFailures(pool);
  retryReadsOnce(pool);
  return pool;
}

const UNREACHABLE = Symbol('database unreachable');

/**
 * Any failure to get a connection (refused, timed out, too many connections, a database that does not
 * accept connections now, starting up) says the database is out of reach, whatever its code: marked
 * here, so the error handler answers 503 (decision 1017). pg-pool's own query() connects through this too.
 */
function markConnectFailures(pool: pg.Pool) {
  const connect = pool.connect.bind(pool) as (cb?: (...a: unknown[]) => void) => Promise<unknown> | undefined;
  const mark = (err: unknown) => {
    if (err && typeof err === 'object') (err as Record<symbol, boolean>)[UNREACHABLE] = true;
    return err;
  };
  (pool as unknown as { connect: unknown }).connect = (cb?: (err: unknown, ...rest: unknown[]) => void) =>
    cb
      ? connect((err, ...rest) => cb(err ? mark(err) : err, ...rest))
      : connect()!.catch((err: unknown) => Promise.reject(mark(err)));
}

/** How long a request waits for a connection to PostgreSQL (a new one, or a free one of the pool). */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A read outside a transaction whose connection was lost (the server ended it; it was cut while idle and
 * the pool had not noticed yet) runs once more on another connection (decision 1017). Only statements
 * that begin with SELECT: a lost write may or may not have committed, and is the caller's to decide on; a
 * transaction runs on a checked-out client, not through here.
 */
function retryReadsOnce(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const [config] = args;
    const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
    if (args.some((a) => typeof a === 'function') || !READ.test(text ?? '')) return query(...args);
    return query(...args).catch((err: unknown) => {
      if (!connectionLost(err)) throw err;
      return query(...args);
    });
  };
}
const READ = /^\s*select\b/i;

/** SQLSTATEs and socket errors that say the connection is gone or cannot be made, not that a statement failed. */
const CONNECTION_CODES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, in recovery
  '53300', // too_many_connections
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|Connection ended unexpectedly|not queryable|timeout exceeded when trying to connect|terminating connection/i;

/**
 * The error says the database could not be reached or the connection was lost (SQLSTATE class 08 and the
 * codes above, node-postgres's own messages), through any wrapper (drizzle's DrizzleQueryError keeps the
 * driver's error as `cause`; an AggregateError of several addresses keeps them in `errors`).
 */
export function connectionLost(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  if ((err as Record<symbol, unknown>)[UNREACHABLE]) return true;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (e.code.startsWith('08') || CONNECTION_CODES.has(e.code))) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message) && !e.cause) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => connectionLost(x, depth + 1))) return true;
  return connectionLost(e.cause, depth + 1);
}

/**
 * The connections that run the directory lists' named page statements on their generic plans
 * (docs/decisions/0745), per database; a database without them (PGlite, a transaction, named statements
 * off) runs them itself.
 */
const genericPlans = new WeakMap<Db, Db>();
export const genericPlansOf = (db: Db): Db => genericPlans.get(db) ?? db;

async function openPostgres(url: string, max: number): Promise<Database> {
  // No parallel workers for the app's statements (docs/decisions/0732): its reads are short walks of
  // an index, and a Gather of workers made a deep directory page 10 times slower at 500,000 profiles
  // (300 ms against 27 ms warm).
  // No JIT compilation either (docs/decisions/0749): it fires on a plan's estimated cost, and a search
  // whose per-match tests the planner costs high (decision 0748) spent 200 ms compiling a 4 ms statement.
  const noWorkers = 'set max_parallel_workers_per_gather = 0; set jit = off';
  // A third of the connections (decision 0745) plan the list pages' named statements once, generically:
  // plan_cache_mode is per session and would reach every unnamed statement of the app too, so these
  // connections run nothing else. PostgreSQL never picks those generic plans by itself (their LIMIT and
  // OFFSET are parameters, so it costs them above the custom ones) and planned each page again (1-5 ms).
  const listMax = preparedStatements.on && max >= 3 ? Math.floor(max / 3) : 0;
  const pool = poolOf(url, max - listMax, noWorkers);
  const lists = listMax ? poolOf(url, listMax, `${noWorkers}; set plan_cache_mode = force_generic_plan`) : undefined;
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  if (lists) genericPlans.set(db, drizzlePg(lists, { schema }) as unknown as Db);
  poolsByDb.set(db, lists ? { main: pool, lists } : { main: pool });
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
    await Promise.all([pool.end(), lists?.end()]);
    throw err;
  }
  await client.query('select pg_advisory_unlock(727001)');
  client.release();
  return {
    db,
    kind: 'postgres',
    async close() {
      await Promise.all([pool.end(), lists?.end()]);
    },
  };
}

const poolsByDb = new WeakMap<Db, Record<string, pg.Pool>>();

/** A PostgreSQL database's pools by name (main, lists), as the metrics read them; none for PGlite. */
export function poolStatsOf(db: Db): Array<{ pool: string; total: number; idle: number; waiting: number }> {
  return Object.entries(poolsByDb.get(db) ?? {}).map(([name, p]) => ({
    pool: name,
    total: p.totalCount,
    idle: p.idleCount,
    waiting: p.waitingCount,
  }));
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
