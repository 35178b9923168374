// Versions per scope (docs/decisions/0730: `scopes`, `scopedVersion`) are read the same way, in the same
// statement, each from the counter of the last commit that changed its scope (migration 0010).
// The directory version (docs/decisions/0700): the counter the database bumps (migration 0006) on any commit
// that changes what visitors see, and the next moment a listing expires or a tour starts (listings'
// nextListingChangeSql). Every cached answer's key starts with it, so a write committed before a request is
// always seen by it, whoever wrote it.
// - PostgreSQL: read fresh for each request (FreshBatch: one query serves every request that arrived while
//   the previous one ran); other processes commit too, and only the database knows of their commits. The
//   same query reads the live figures (views, last seen) of the profiles those requests open
//   (docs/decisions/0722): one round trip per batch for a profile answer, not two in a row.
// - PGlite (docs/decisions/0720): every statement goes through this process's one instance, which tells it
//   of each such commit before the writer's promise resolves (CommitWatch). The version read is kept
//   until then, or until the app's clock reaches the next expiry (or goes back before the read): no
//   query per request.
import { sql } from 'drizzle-orm';
import type { Category } from '#shared/constants.ts';
import type { AppContext } from '../../context';
import { commitWatchOf, queryRows } from '../../db/client';
import { FreshBatch, FreshRead } from '../../lib/fresh-read';
import { nextListingChangeSql } from '../listings/listings.service';

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
 * The version read as one statement's text (the bench's node:http reference sends the same): the counter,
 * the database's token and start time, the next expiry or tour start after `at` (epoch ms; a literal, see
 * below) and, when profiles are named (integers, checked by the caller), their live figures.
 */
export function versionStatement(at: number, profileIds: number[] = [], scopes: string[] = []): string {
  const parts = scopes.flatMap((key) => {
    const expr = scopeExpression(key, `'${new Date(at).toISOString()}'::timestamptz`);
    return expr ? [`(${literal(key)}, ${expr})`] : [];
  });
  const scoped = parts.length
    ? `, (select concat_ws('.', db_token, ${scopeV("'all'")},
          (extract(epoch from pg_postmaster_start_time()) * 1000)::bigint)) as base,
        (select json_object_agg(k, val) from (values ${parts.join(', ')}) x(k, val)) as scopes`
    : '';
  const live = profileIds.length
    ? `, (select json_agg(json_build_object('id', p.user_id, 'views', p.views,
          'seen', (extract(epoch from a.last_seen_at) * 1000)::bigint))
        from profiles p join accounts a on a.id = p.user_id where p.user_id in (${profileIds.join(',')})) as live`
    : '';
  const moment = `'${new Date(at).toISOString()}'::timestamptz`;
  return `select concat_ws('.', db_token, v,
          (extract(epoch from pg_postmaster_start_time()) * 1000)::bigint, n.next) as version, n.next::text as next${live}${scoped}
        from directory_version,
          (select least((extract(epoch from ${nextListingChangeSql(moment)}) * 1000)::bigint,
            ${availableEndMs(moment)}) as next) n`;
}

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

const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
const scopeV = (name: string) => `coalesce((select v from directory_scopes where scope = ${name}), 0)`;
const epochMs = (query: string) =>
  `(select (extract(epoch from min(expires_at)) * 1000)::bigint from listings ${query})`;
/** The next expiry or tour start after `at` among the listings `where` names, as epoch ms (0403). */
const changeMs = (at: string, where?: string) =>
  `(select (extract(epoch from ${nextListingChangeSql(at, where)}) * 1000)::bigint)`;

/**
 * The next end of "available now" after `at` among the profiles `where` names (alias `ap`), as epoch ms
 * (docs/decisions/0320): a card's or profile's badge turns off then, with no write, like a tour's start
 * (0403). The partial index `profiles_available_until` holds only those switched on, so the range
 * `> at` reads the profiles available now, each checked against the scope.
 */
// The first in the index's order that the scope holds, rather than min(): with the scope's `exists` the
// planner no longer reads min() as a walk of the index that stops at once, and probed every profile
// available now (2,500 at 50,000 profiles: 19 ms per version read, measured by the filters' bench, 0324).
const availableEndMs = (at: string, where?: string) =>
  `(select (extract(epoch from x.available_until) * 1000)::bigint from (select ap.available_until from profiles ap
    where ap.available_until is not null and ap.available_until > ${at}${where ? ` and ${where}` : ''}
    order by ap.available_until limit 1) x)`;
/** A listed profile `ap` with a listing in the scope (its directory entries, migration 0010). */
const entryIn = (where: string) =>
  `exists (select 1 from directory_entries e where e.profile_id = ap.user_id and ${where})`;

/**
 * One scope's part of the version as `json_build_array(part, next expiry in ms or null)`: the scope's
 * counter (the last commit that changed it, kept by the triggers of migration 0010) and the next moment a
 * listing in it expires or a tour in it starts after `at` (the time-driven changes: docs/decisions/0700,
 * 0403; the counts' scopes only the expiries), with the id the slugs resolved to. Null for a key this module did not make.
 */
function scopeExpression(key: string, at: string): string | null {
  const [kind, a = '', b = '', c = ''] = key.split('|');
  // What a card or a profile shows changes when a listing in the scope expires or a tour in it starts
  // (docs/decisions/0403); a count only when one expires (a coming tour is listed and counted already).
  // "Available now" ends (0320) change what cards and profiles show too: the earlier of the two moments.
  const next = (where: string, profiles: string) =>
    `(select least(${changeMs(at, where)}, ${availableEndMs(at, profiles)}))`;
  const nextExpiry = (where: string) => epochMs(`where ${where} and expires_at > ${at}`);
  // The next such moment is in the version too: after it, a new key (and on PGlite, a new read).
  const pair = (part: string, n: string) =>
    `(select json_build_array(concat_ws('.', ${part}, x.n), x.n) from ${n} x(n))`;
  switch (kind) {
    case 'g':
      return pair(scopeV("'g'"), `(select least(${changeMs(at)}, ${availableEndMs(at)}))`);
    case 'k':
      return pair(scopeV("'n:*'"), epochMs(`where expires_at > ${at}`));
    case 'l':
      if (!b)
        return `(select ${pair(
          `concat_ws('.', co.code, ${scopeV(`'c:' || co.code || ':' || ${literal(c)}`)})`,
          next('country_code = co.code', entryIn('e.country_code = co.code')),
        )} from countries co where co.slug = ${literal(a)})`;
      return `(select ${pair(
        `concat_ws('.', ci.id, ${scopeV(`'y:' || co.code || ':' || ci.id || ':' || ${literal(c)}`)})`,
        next('city_id = ci.id', entryIn('e.city_id = ci.id')),
      )} from countries co join cities ci on ci.country_code = co.code
         where co.slug = ${literal(a)} and ci.slug = ${literal(b)})`;
    case 'v':
      return `(select ${pair(`concat_ws('.', co.code, ${scopeV(`'n:' || co.code`)})`, nextExpiry('country_code = co.code'))}
        from countries co where co.slug = ${literal(a)})`;
    case 'p': {
      const id = Number(a);
      if (!Number.isSafeInteger(id)) return null;
      return pair(`${scopeV(`'p:${id}'`)}::text`, next(`profile_id = ${id}`, `ap.user_id = ${id}`));
    }
    case 'n':
      return `(select ${pair(`concat_ws('.', p.user_id, ${scopeV(`'p:' || p.user_id`)})`, next('profile_id = p.user_id', 'ap.user_id = p.user_id'))}
        from profiles p where lower(p.screen_name) = lower(${literal(a)}))`;
    default:
      return null;
  }
}

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
  // and a database restored from a backup (its counter went back). Raw SQL: one string made by the
  // database from its own functions, on every request's path (docs/decisions/0915); the moment is a
  // literal (toISOString() has no quote), so the statement has no parameter and takes the simple
  // protocol: a bound parameter measured ~0.3 ms more per read.
  // The live figures of the profiles named (integers, checked, so literals too), in the same statement:
  // one snapshot, one round trip. Same columns as findProfileLive (directory.repo.ts); the moment as epoch
  // ms, which JSON keeps exact. The scopes named likewise (docs/decisions/0730).
  const named: number[] = [];
  const scoped: string[] = [];
  for (const key of keys ?? []) {
    if (!key.startsWith(LIVE)) scoped.push(key);
    else if (Number.isSafeInteger(Number(key.slice(1)))) named.push(Number(key.slice(1)));
  }
  const [row] = await queryRows<{
    version: string;
    next: string | null;
    live?: unknown;
    base?: string;
    scopes?: unknown;
  }>(ctx.db, sql.raw(versionStatement(at, named, scoped)));
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
