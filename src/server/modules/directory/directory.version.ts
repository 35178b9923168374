// The directory version (docs/decisions/0700): the counter the database bumps (migration 0006) on any commit
// that changes what visitors see, and the next moment a listing expires. Every cached answer's key starts
// with it, so a write committed before a request is always seen by it, whoever wrote it.
// - PostgreSQL: read fresh for each request (FreshBatch: one query serves every request that arrived while
//   the previous one ran); other processes commit too, and only the database knows of their commits. The
//   same query reads the live figures (views, last seen) of the profiles those requests open
//   (docs/decisions/0722): one round trip per batch for a profile answer, not two in a row.
// - PGlite (docs/decisions/0720): every statement goes through this process's one instance, which tells it
//   of each such commit before the writer's promise resolves (CommitWatch). The version read is kept
//   until then, or until the app's clock reaches the next expiry (or goes back before the read): no
//   query per request.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { commitWatchOf, queryRows } from '../../db/client';
import { FreshBatch, FreshRead } from '../../lib/fresh-read';

interface Read {
  version: string;
  /** The app's clock (epoch ms) the read was made for, and the next expiry after it (null: none). */
  at: number;
  next: number | null;
  /** The commit watch's generation before the read was made. */
  generation: number;
}

/** A profile's figures that change without a new version (docs/decisions/0700). */
export interface LiveFigures {
  views: number;
  last_seen_at: Date | string | null;
}

interface BatchRead {
  read: Read;
  /** The live figures of the profiles named to the read (null: no such profile). */
  live: Map<number, LiveFigures | null>;
}

const batches = new WeakMap<AppContext, FreshBatch<number, BatchRead>>();

const readers = new WeakMap<AppContext, FreshRead<Read>>();
/** PGlite: the latest read, valid while no commit came and the clock is in [at, next). */
const known = new WeakMap<AppContext, Read>();

/**
 * The version read as one statement's text (the bench's node:http reference sends the same): the counter,
 * the database's token and start time, the next expiry after `at` (epoch ms; a literal, see below) and,
 * when profiles are named (integers, checked by the caller), their live figures.
 */
export function versionStatement(at: number, profileIds: number[] = []): string {
  const live = profileIds.length
    ? `, (select json_agg(json_build_object('id', p.user_id, 'views', p.views,
          'seen', (extract(epoch from a.last_seen_at) * 1000)::bigint))
        from profiles p join accounts a on a.id = p.user_id where p.user_id in (${profileIds.join(',')})) as live`
    : '';
  return `select concat_ws('.', db_token, v,
          (extract(epoch from pg_postmaster_start_time()) * 1000)::bigint, n.next) as version, n.next::text as next${live}
        from directory_version,
          (select (extract(epoch from min(expires_at)) * 1000)::bigint as next from listings
           where expires_at > '${new Date(at).toISOString()}'::timestamptz) n`;
}

async function readVersion(ctx: AppContext): Promise<Read>;
async function readVersion(ctx: AppContext, ids: ReadonlySet<number>): Promise<BatchRead>;
async function readVersion(ctx: AppContext, ids?: ReadonlySet<number>): Promise<Read | BatchRead> {
  const watch = commitWatchOf(ctx.db);
  const generation = watch?.generation ?? 0;
  await watch?.ensureArmed();
  const at = ctx.now().getTime();
  // A listing that expires at T changes the answers at T without any write: the next such moment after
  // the app's clock (ctx.now(), the clock the lists filter by) is part of the version, so the first read
  // after T has a new key. The database's token and start time keep apart databases sharing one Redis,
  // and a database restored from a backup (its counter went back). Raw SQL: one string made by the
  // database from its own functions, on every request's path (docs/decisions/0915); the moment is a
  // literal (toISOString() has no quote), so the statement has no parameter and takes the simple
  // protocol: a bound parameter measured ~0.3 ms more per read.
  // The live figures of the profiles named (integers, checked, so literals too), in the same statement:
  // one snapshot, one round trip. Same columns as findProfileLive (directory.repo.ts); the moment as epoch
  // ms, which JSON keeps exact.
  const named = ids ? [...ids].filter((id) => Number.isSafeInteger(id)) : [];
  const [row] = await queryRows<{ version: string; next: string | null; live?: unknown }>(
    ctx.db,
    sql.raw(versionStatement(at, named)),
  );
  if (!row) throw new Error('directory_version has no row (migration 0006)');
  const read: Read = { version: row.version, at, next: row.next === null ? null : Number(row.next), generation };
  // Kept only if no commit came since before the query was sent (the query may not have seen it).
  if (watch && watch.generation === generation) known.set(ctx, read);
  if (!ids) return read;
  const figures = new Map<number, LiveFigures | null>(named.map((id) => [id, null]));
  const rows = (typeof row.live === 'string' ? JSON.parse(row.live) : row.live) as Array<{
    id: number;
    views: number;
    seen: number | null;
  }> | null;
  for (const r of rows ?? [])
    figures.set(Number(r.id), { views: r.views, last_seen_at: r.seen === null ? null : new Date(Number(r.seen)) });
  return { read, live: figures };
}

/** PostgreSQL: one read per batch of requests, with the live figures of the profiles they name. */
function batchOf(ctx: AppContext) {
  let batch = batches.get(ctx);
  if (!batch) {
    batch = new FreshBatch((ids) => readVersion(ctx, ids));
    batches.set(ctx, batch);
  }
  return batch;
}

/** The directory's current version (read after this call began, or known unchanged since). */
export function directoryVersion(ctx: AppContext): Promise<string> {
  const watch = commitWatchOf(ctx.db);
  if (watch) {
    const k = known.get(ctx);
    if (k && k.generation === watch.generation) {
      const now = ctx.now().getTime();
      if (now >= k.at && (k.next === null || now < k.next)) return Promise.resolve(k.version);
    }
  }
  if (!watch)
    return batchOf(ctx)
      .get()
      .then((r) => r.read.version);
  let reader = readers.get(ctx);
  if (!reader) {
    reader = new FreshRead(() => readVersion(ctx));
    readers.set(ctx, reader);
  }
  return reader.get().then((r) => r.version);
}

/**
 * The directory's current version and, on PostgreSQL, the live figures of profile `id` read by the same
 * query (undefined: not read here; on PGlite they are known in process, directory.cache.ts). Both are
 * read after this call began.
 */
export async function directoryVersionWithLive(
  ctx: AppContext,
  id: number,
): Promise<{ version: string; live?: LiveFigures | null }> {
  if (commitWatchOf(ctx.db)) return { version: await directoryVersion(ctx) };
  const r = await batchOf(ctx).get(id);
  return { version: r.read.version, live: r.live.get(id) };
}
