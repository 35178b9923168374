// The directory version (docs/decisions/0700): the counter the database bumps (migration 0006) on any commit
// that changes what visitors see, and the next moment a listing expires. Every cached answer's key starts
// with it, so a write committed before a request is always seen by it, whoever wrote it.
// - PostgreSQL: read fresh for each request (FreshRead: one query serves every request that arrived while
//   the previous one ran); other processes commit too, and only the database knows of their commits.
// - PGlite (docs/decisions/0720): every statement goes through this process's one instance, which tells it
//   of each such commit before the writer's promise resolves (CommitWatch). The version read is kept
//   until then, or until the app's clock reaches the next expiry (or goes back before the read): no
//   query per request.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { commitWatchOf, queryRows } from '../../db/client';
import { FreshRead } from '../../lib/fresh-read';

interface Read {
  version: string;
  /** The app's clock (epoch ms) the read was made for, and the next expiry after it (null: none). */
  at: number;
  next: number | null;
  /** The commit watch's generation before the read was made. */
  generation: number;
}

const readers = new WeakMap<AppContext, FreshRead<Read>>();
/** PGlite: the latest read, valid while no commit came and the clock is in [at, next). */
const known = new WeakMap<AppContext, Read>();

async function readVersion(ctx: AppContext): Promise<Read> {
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
  const [row] = await queryRows<{ version: string; next: string | null }>(
    ctx.db,
    sql`select concat_ws('.', db_token, v,
          (extract(epoch from pg_postmaster_start_time()) * 1000)::bigint, n.next) as version, n.next::text as next
        from directory_version,
          (select (extract(epoch from min(expires_at)) * 1000)::bigint as next from listings
           where expires_at > ${sql.raw(`'${new Date(at).toISOString()}'`)}::timestamptz) n`,
  );
  if (!row) throw new Error('directory_version has no row (migration 0006)');
  const read: Read = { version: row.version, at, next: row.next === null ? null : Number(row.next), generation };
  // Kept only if no commit came since before the query was sent (the query may not have seen it).
  if (watch && watch.generation === generation) known.set(ctx, read);
  return read;
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
  let reader = readers.get(ctx);
  if (!reader) {
    reader = new FreshRead(() => readVersion(ctx));
    readers.set(ctx, reader);
  }
  return reader.get().then((r) => r.version);
}
