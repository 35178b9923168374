// The directory's answers to visitors from a cache of serialised answers (docs/decisions/0700). Since
// decision 0730 a key starts with the version of the one scope the answer depends on (scopedAnswer: a
// country's or city's list, a navigation, a profile, search/nearby/feed), so a write elsewhere keeps it;
// the global version below still keys the server-rendered pages. Every key
// starts with the directory version (directory.version.ts): the counter the database bumps (migration 0006) on any commit that
// writes profiles (but for the view counter), accounts (but for last_seen_at), listings, media, cities,
// countries or search words, and the next moment a listing expires. The version is read fresh for each
// request (FreshRead: one query serves every request that arrived while the previous one ran), so a
// write committed before a request is always seen by it, whoever wrote it.
import type { AppContext } from '../../context';
import type { Profile } from '#shared/schemas/directory.ts';
import type { Language } from '#shared/constants.ts';
import { nameLanguage } from '../geo/city-names';
import { AnswerCache, etagOf, makeAnswer, rawAnswer, type Answer } from '../../lib/answer-cache';
import { RedisRateLimiter } from '../../lib/rate-limiter';
import type { Visitor } from '../../lib/visitor-count';
import { lastSeenSeconds } from './directory.presenter';
import { findProfileLive } from './profile-read.repo';
import { countProfileView, getProfile } from './directory.service';
import { directoryVersion, scopedVersion, scopes } from './directory.version';
import { FreshReads } from '../../lib/fresh-read';
import { metricsOf } from '../../lib/metrics';
import { commitWatchOf, type CommitWatch } from '../../db/client';

const answerCaches = new WeakMap<AppContext, AnswerCache>();

export const answerCache = (ctx: AppContext): AnswerCache => {
  let answers = answerCaches.get(ctx);
  if (!answers) {
    // Redis (when REDIS_URL is set) is shared by every instance; in-process entries sit in front of it.
    answers = new AnswerCache({
      redis: ctx.limiter instanceof RedisRateLimiter ? ctx.limiter.redis : undefined,
      redisPrefix: `answer:${ctx.buildId}:`,
      onLookup: (result) => metricsOf(ctx).answerCache.inc({ result }),
    });
    answerCaches.set(ctx, answers);
  }
  return answers;
};

export interface Produced {
  /** Sent as JSON... */
  value?: unknown;
  /** ...or these bytes as they are. */
  raw?: Buffer;
  /** How long the answer may be used under the same version (parts that age by time alone). */
  ttlMs?: number;
  meta?: Record<string, unknown>;
}

/** A visitor's answer under `key`, made by `produce` (given the version it is made for) on a miss. */
export async function visitorAnswer(
  ctx: AppContext,
  key: string,
  produce: (version: string) => Promise<Produced>,
  /** The version, when the caller has read it already (after its request began). */
  known?: string,
): Promise<Answer> {
  const version = known ?? (await directoryVersion(ctx));
  return answerCache(ctx).get(`${version}|${key}`, async () => {
    const made = await produce(version);
    const ttl = made.ttlMs ?? Infinity;
    return made.raw ? rawAnswer(made.raw, ttl, made.meta) : makeAnswer(made.value, ttl, made.meta);
  });
}

/**
 * A visitor's answer that depends on one scope only (`scopes.*`, docs/decisions/0730): its key starts
 * with that scope's version, so a write elsewhere leaves it cached.
 */
export async function scopedAnswer(
  ctx: AppContext,
  scope: string,
  key: string,
  produce: (version: string) => Promise<Produced>,
): Promise<Answer> {
  const { version } = await scopedVersion(ctx, scope);
  return visitorAnswer(ctx, key, produce, version);
}

type Live = Awaited<ReturnType<typeof findProfileLive>>;

/**
 * PGlite (docs/decisions/0720): a profile's live figures as last read, dropped when the instance tells of
 * a change to them (`profile_live`) or of any commit to the directory (the watch's generation). A read
 * is kept only if neither came while it ran.
 */
class KnownLive {
  private entries = new Map<number, { value?: Live; stamp: number; generation: number; epoch: number }>();
  private stamp = 0;
  /** Moves when the entries are dropped for room (their stamps with them). */
  private epoch = 0;
  constructor(private readonly watch: CommitWatch) {
    watch.onLive((id) => this.entries.set(id, { stamp: ++this.stamp, generation: -1, epoch: this.epoch }));
  }

  get(id: number): Live | undefined {
    const e = this.entries.get(id);
    return e && e.generation === this.watch.generation ? e.value : undefined;
  }

  /** Taken before a read. */
  mark(id: number) {
    return { stamp: this.entries.get(id)?.stamp ?? 0, generation: this.watch.generation, epoch: this.epoch };
  }

  set(id: number, mark: ReturnType<KnownLive['mark']>, value: Live) {
    if (mark.generation !== this.watch.generation || mark.epoch !== this.epoch) return;
    if ((this.entries.get(id)?.stamp ?? 0) !== mark.stamp) return;
    if (this.entries.size >= 100_000) {
      this.entries.clear();
      this.epoch++;
      return;
    }
    this.entries.set(id, { value, ...mark });
  }
}

const liveReaders = new WeakMap<AppContext, { reads: FreshReads<number, Live>; known?: KnownLive }>();
const liveOf = (ctx: AppContext) => {
  let live = liveReaders.get(ctx);
  if (!live) {
    const watch = commitWatchOf(ctx.db);
    const known = watch ? new KnownLive(watch) : undefined;
    const reads = new FreshReads(async (id: number) => {
      const mark = known?.mark(id);
      const value = await findProfileLive(ctx.db, id);
      if (mark) known?.set(id, mark, value);
      return value;
    });
    live = { reads, known };
    liveReaders.set(ctx, live);
  }
  return live;
};

// A profile answer shows its view count and how long ago its owner was seen, which change without a new
// version: the cached text holds a marker in their place, filled on every read from one short query.
const LIVE_VIEWS = -987_654_321;
const LIVE_SEEN = -987_654_322;
const LIVE_MARK = `"views":${LIVE_VIEWS},"last_seen":${LIVE_SEEN}`;
// With the profile's HTML (`?render=1`) the figures are in the HTML too: that answer is kept a minute.
const RENDERED_TTL_MS = 60_000;

/**
 * A visitor's profile answer (`{ profile }`, `render` wraps it with its HTML), its view counted for
 * `visitor`. A profile nobody may see is a 404, as without the cache.
 */
export async function visitorProfile(
  ctx: AppContext,
  by: { id: number } | { name: string },
  /** `visitor`: who opened it, for the view count (null: nothing counted). */
  /** `lang`: the caller's, for the city and country names (docs/decisions/0604). */
  opts: { visitor: Visitor | null; lang?: Language; rendered: string | null; wrap: (p: Profile) => unknown },
): Promise<Answer> {
  const names = nameLanguage(opts.lang ?? 'en') ?? 'en';
  const name = 'id' in by ? null : by.name.toLowerCase();
  const key = `profile|${name === null ? (by as { id: number }).id : `@${name}`}|${opts.rendered ?? ''}|${names}`;
  // PostgreSQL (docs/decisions/0722): the live figures come with the version, in the same query, when the
  // profile's id is known before the answer is (by name: the id that name had last time).
  let idsByName = namesOf.get(ctx);
  if (!idsByName) namesOf.set(ctx, (idsByName = new Map()));
  const guess = opts.rendered ? undefined : name === null ? (by as { id: number }).id : idsByName.get(name);
  // Its own scope (docs/decisions/0730): a write to another profile keeps this answer.
  const scope = name === null ? scopes.profile((by as { id: number }).id) : scopes.profileByName(name);
  const withLive = await scopedVersion(ctx, scope, guess);
  const cached = await visitorAnswer(
    ctx,
    key,
    async () => {
      const profile = await getProfile(ctx, by, null, { countView: false, lang: opts.lang });
      if (opts.rendered)
        return { value: { profile: opts.wrap(profile) }, ttlMs: RENDERED_TTL_MS, meta: { id: profile.user_id } };
      return {
        value: { profile: opts.wrap({ ...profile, views: LIVE_VIEWS, last_seen: LIVE_SEEN }) },
        meta: { id: profile.user_id },
      };
    },
    withLive.version,
  );
  const id = Number(cached.meta?.id);
  if (name !== null && idsByName.get(name) !== id) {
    if (idsByName.size >= 100_000) idsByName.clear();
    idsByName.set(name, id);
  }
  // Read before this view is added, as the uncached answer is, and after this request began: with the
  // version (above), else one query serves every request for the profile that arrived while the previous
  // one ran; on PGlite known in process until the instance tells of a change.
  let live: Live | undefined | null = null;
  if (!opts.rendered) {
    if (withLive.live !== undefined && guess === id) live = withLive.live;
    else {
      const figures = liveOf(ctx);
      live = figures.known?.get(id) ?? (await figures.reads.get(id));
    }
  }
  if (opts.visitor) await countProfileView(ctx, id, opts.visitor);
  if (!live) return cached;
  return spliced(cached, live.views, lastSeenSeconds(live.last_seen_at, ctx.now()));
}

/** Profile names as last answered, to read a profile's live figures with the version (by name). */
const namesOf = new WeakMap<AppContext, Map<string, number>>();

/**
 * The cached answer with these figures in place of its marker. The last one made for each cached answer
 * is kept with it (the same figures give the same bytes, ETag and compressed forms, made once), so a
 * popular profile costs no copy, hash or compression per request, only when its figures change.
 */
const splices = new WeakMap<Answer, { at: number; views?: number; seen?: number | null; answer?: Answer }>();
function spliced(cached: Answer, views: number, seen: number | null): Answer {
  let s = splices.get(cached);
  if (!s) {
    s = { at: cached.body.lastIndexOf(LIVE_MARK) };
    splices.set(cached, s);
  }
  if (s.at < 0) return cached;
  if (s.answer && s.views === views && s.seen === seen) return s.answer;
  const body = Buffer.concat([
    cached.body.subarray(0, s.at),
    Buffer.from(`"views":${views},"last_seen":${seen ?? 'null'}`),
    cached.body.subarray(s.at + LIVE_MARK.length),
  ]);
  const answer: Answer = { body, etag: etagOf(body), expires: cached.expires, meta: cached.meta, transient: true };
  Object.assign(s, { views, seen, answer });
  return answer;
}
