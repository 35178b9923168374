// Versions per scope (docs/decisions/0730: `scopes`, `scopedVersion`) are read the same way, in the same
// statement, each from the counter of the last commit that changed its scope (migration 0010).
// The directory version (docs/decisions/0700): the counter the database bumps (migration 0006) on any commit
// that changes what visitors see, and the next moment a listing expires, a tour starts or an "available now"
// ends (read by the function of migration 0018, decision 0731). Every cached answer's key starts with it, so
// a write committed before a request is always seen by it, whoever wrote it.
// - PostgreSQL: read fresh for each request (FreshBatch: one query serves every request that arrived while
//   the previous one ran); other processes commit too, and only the database knows of their commits. The
//   same query reads the live figures (views, last seen) of the profiles those requests open
//   (docs/decisions/0722): one round trip per batch for a profile answer, not two in a row.
// - PGlite (docs/decisions/0720): every statement goes through this process's one instance, which tells it
//   of each such commit before the writer's promise resolves (CommitWatch). The version read is kept
//   until then, or until the app's clock reaches the next expiry (or goes back before the read): no
//   query per request.
import type { Category } from '#shared/constants.ts';
import type { AppContext } from '../../context';
import { commitWatchOf } from '../../db/client';
import { FreshBatch, FreshRead } from '../../lib/fresh-read';
import { readVersionRow } from './version.repo';

/** The bench's node:http reference sends the same statement (bench/directory.bench.ts names it here). */
export { versionStatement } from './version.repo';

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
  /** The scopes named to the read. */
  scopes: Map<string, ScopeRead>;
}

/** One scope's part of the version as read at `at` (epoch ms), valid until `next` on PGlite. */
interface ScopeRead {
  version: string;
  at: number;
  next: number | null;
  generation: number;
}

const batches = new WeakMap<AppContext, FreshBatch<string, BatchRead>>();

const readers = new WeakMap<AppContext, FreshRead<Read>>();
/** PGlite: the latest read, valid while no commit came and the clock is in [at, next). */
const known = new WeakMap<AppContext, Read>();

/**
 * What a cached answer depends on (docs/decisions/0730), named by what the request gives (slugs, ids):
 * the database resolves them in the version read itself, so a scoped answer costs the round trip a
 * global one did.
 */
export const scopes = {
  /** A country's or city's list of one category (getDirectory). */
  list: (country: string, place: string | undefined | null, category: Category) =>
    `l|${country}|${place ?? ''}|${category}`,
  /** A country's navigation (cities and category counts of the country and its cities). */
  navigation: (country: string) => `v|${country}`,
  /** A profile by id, or by name (the profile that name has now). */
  profile: (id: number) => `p|${id}`,
  profileByName: (name: string) => `n|${name.toLowerCase()}`,
  /** The countries list (any count). */
  countries: 'k',
  /** Anything a listed profile shows anywhere (search, nearby, the feed). */
  content: 'g',
} as const;

/**
 * The part of a version that moves when countries, cities or their names change: a scoped version
 * (scopedVersion) starts with the directory's base (the database, its start and the counter of scope
 * 'all', which those tables' triggers turn), then `|`. Slugs resolve under it (decision 0742). A global
 * version (directoryVersion: no `|`) is used whole.
 */
export const placesVersion = (v: string) => {
  const bar = v.indexOf('|');
  return bar < 0 ? v : v.slice(0, bar);
};

/** A batch key naming a profile whose live figures the read takes (others are scopes). */
const LIVE = '#';

async function readVersion(ctx: AppContext): Promise<Read>;
async function readVersion(ctx: AppContext, keys: ReadonlySet<string>): Promise<BatchRead>;
async function readVersion(ctx: AppContext, keys?: ReadonlySet<string>): Promise<Read | BatchRead> {
  const watch = commitWatchOf(ctx.db);
  const generation = watch?.generation ?? 0;
  await watch?.ensureArmed();
  const at = ctx.now().getTime();
  // A listing that expires (or a tour that starts) at T changes the answers at T without any write: the
  // next such moment after the app's clock (ctx.now(), the clock the lists filter by) is part of the
  // version, so the first read after T has a new key. The database's token and start time keep apart databases sharing one Redis,
  // and a database restored from a backup (its counter went back). The statement is version.repo.ts's.
  // The live figures of the profiles named (integers, checked, so literals too), in the same statement:
  // one snapshot, one round trip. Same columns as findProfileLive (profile-read.repo.ts); the moment as
  // epoch ms, which JSON keeps exact. The scopes named likewise (docs/decisions/0730).
  const named: number[] = [];
  const scoped: string[] = [];
  for (const key of keys ?? []) {
    if (!key.startsWith(LIVE)) scoped.push(key);
    else if (Number.isSafeInteger(Number(key.slice(1)))) named.push(Number(key.slice(1)));
  }
  const row = await readVersionRow(ctx.db, at, named, scoped);
  if (!row) throw new Error('directory_version has no row (migration 0006)');
  const read: Read = { version: row.version, at, next: row.next === null ? null : Number(row.next), generation };
  // Kept only if no commit came since before the query was sent (the query may not have seen it).
  const kept = watch && watch.generation === generation;
  if (kept) known.set(ctx, read);
  if (!keys) return read;
  const figures = new Map<number, LiveFigures | null>(named.map((id) => [id, null]));
  const rows = parsed(row.live) as Array<{ id: number; views: number; seen: number | null }> | null;
  for (const r of rows ?? [])
    figures.set(Number(r.id), { views: r.views, last_seen_at: r.seen === null ? null : new Date(Number(r.seen)) });
  const parts = new Map<string, ScopeRead>();
  const found = (parsed(row.scopes) ?? {}) as Record<string, [string, number | string | null] | null>;
  for (const key of scoped) {
    const pair = found[key];
    const part: ScopeRead = {
      version: `${row.base ?? ''}|${pair ? pair[0] : '-'}`,
      at,
      next: pair && pair[1] !== null ? Number(pair[1]) : null,
      generation,
    };
    parts.set(key, part);
    if (kept) knownScopesOf(ctx).set(key, part);
  }
  return { read, live: figures, scopes: parts };
}

const parsed = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as unknown;

/** PostgreSQL: one read per batch of requests, with the live figures and scopes they name. */
function batchOf(ctx: AppContext) {
  let batch = batches.get(ctx);
  if (!batch) {
    batch = new FreshBatch((keys) => readVersion(ctx, keys));
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

/** PGlite: the scopes' last reads, valid while no commit came and the clock is in [at, next). */
const knownScopes = new WeakMap<AppContext, Map<string, ScopeRead>>();
function knownScopesOf(ctx: AppContext) {
  let m = knownScopes.get(ctx);
  if (!m) knownScopes.set(ctx, (m = new Map()));
  else if (m.size >= 100_000) m.clear();
  return m;
}

/**
 * The version of the answers of one scope (`scopes.*`): the directory's base (database, start, the
 * countries and cities), the scope's own counter and next expiry, and the app clock's UTC day (a tour
 * starts and ends on a day). Read after this call began, or on PGlite known unchanged since; with the
 * live figures of profile `live` when asked (PostgreSQL; undefined on PGlite, where they are known in
 * process).
 */
export async function scopedVersion(
  ctx: AppContext,
  scope: string,
  live?: number,
): Promise<{ version: string; live?: LiveFigures | null }> {
  const day = ctx.now().toISOString().slice(0, 10);
  const watch = commitWatchOf(ctx.db);
  if (watch) {
    const k = knownScopes.get(ctx)?.get(scope);
    const now = ctx.now().getTime();
    if (k && k.generation === watch.generation && now >= k.at && (k.next === null || now < k.next))
      return { version: `${k.version}|${day}` };
    const r = await batchOf(ctx).get(scope);
    return { version: `${r.scopes.get(scope)!.version}|${day}` };
  }
  const r = await batchOf(ctx).get(live === undefined ? scope : [scope, `${LIVE}${live}`]);
  return { version: `${r.scopes.get(scope)!.version}|${day}`, live: live === undefined ? undefined : r.live.get(live) };
}
