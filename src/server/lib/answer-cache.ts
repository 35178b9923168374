// A cache of serialised answers (docs/decisions/0700): JSON bytes with their ETag, and their brotli and
// gzip forms made once. Keys carry a version read from the database, which the database itself bumps on
// every write that can change an answer; an entry is therefore never invalidated, only no longer asked
// for, and falls out by size (in process) or by time (Redis, shared by every instance when REDIS_URL is
// set). The in-process layer sits in front of Redis: an entry under a given key never changes.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

export interface Answer {
  /** The JSON text as sent. */
  body: Buffer;
  etag: string;
  /** Epoch ms after which the entry is not used (answers with a part that ages by time alone). */
  expires: number;
  /** What the caller needs on a hit besides the bytes (the profile id a view is counted for). */
  meta?: Record<string, unknown>;
  br?: Buffer;
  gzip?: Buffer;
  /** Made for one request only (not held by the cache). */
  transient?: boolean;
}

export function makeAnswer(value: unknown, ttlMs: number, meta?: Record<string, unknown>, now = Date.now()): Answer {
  return rawAnswer(Buffer.from(JSON.stringify(value)), ttlMs, meta, now);
}

/** An answer of these bytes (`ttlMs` 0: used once, not kept). */
export function rawAnswer(body: Buffer, ttlMs: number, meta?: Record<string, unknown>, now = Date.now()): Answer {
  return { body, etag: etagOf(body), expires: ttlMs === Infinity ? Infinity : now + ttlMs, meta };
}

export const etagOf = (bytes: Buffer | string) =>
  `"${crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/** In-process entries, least recently used out first, bounded by their bytes. */
class MemoryLayer {
  private map = new Map<string, Answer>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(key: string, now: number): Answer | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (hit.expires <= now) {
      this.delete(key);
      return undefined;
    }
    // Most recently used last.
    this.map.delete(key);
    this.map.set(key, hit);
    return hit;
  }

  set(key: string, a: Answer) {
    this.delete(key);
    this.map.set(key, a);
    this.bytes += size(a);
    for (const [k] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(k);
    }
  }

  /** A compressed form was added to an entry. */
  grew(by: number) {
    this.bytes += by;
  }

  private delete(key: string) {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.bytes -= size(old);
  }

  clear() {
    this.map.clear();
    this.bytes = 0;
  }
}

const size = (a: Answer) => a.body.length + (a.br?.length ?? 0) + (a.gzip?.length ?? 0) + 200;

/** Redis layer: one string per entry, `etag \n expires \n meta \n body`, dropped by Redis after a while. */
class RedisLayer {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs: number,
  ) {}

  async get(key: string, now: number): Promise<Answer | undefined> {
    const raw = await this.redis.getBuffer(this.prefix + key).catch(() => null);
    if (!raw) return undefined;
    const parts: number[] = [];
    for (let i = 0, at = 0; i < 3; i++) {
      at = raw.indexOf(10, at);
      if (at < 0) return undefined;
      parts.push(at++);
    }
    const [a, b, c] = parts;
    const expires = Number(raw.subarray(a + 1, b).toString());
    if (!(expires > now)) return undefined;
    const metaText = raw.subarray(b + 1, c).toString();
    return {
      etag: raw.subarray(0, a).toString(),
      expires,
      meta: metaText ? (JSON.parse(metaText) as Record<string, unknown>) : undefined,
      body: raw.subarray(c + 1),
    };
  }

  set(key: string, a: Answer) {
    const head = `${a.etag}\n${a.expires === Infinity ? 'Infinity' : a.expires}\n${a.meta ? JSON.stringify(a.meta) : ''}\n`;
    const ttl = a.expires === Infinity ? this.ttlMs : Math.min(this.ttlMs, Math.max(1, a.expires - Date.now()));
    // A lost write only costs a later miss.
    this.redis.set(this.prefix + key, Buffer.concat([Buffer.from(head), a.body]), 'PX', ttl).catch(() => undefined);
  }
}

export interface AnswerCacheOptions {
  /** In-process bytes (default 64 MiB). */
  maxBytes?: number;
  /** Shared layer; entries live `redisTtlMs` there (default 10 minutes). */
  redis?: Redis;
  redisPrefix?: string;
  redisTtlMs?: number;
  now?: () => number;
  /** Told where each answer came from (the metrics, decision 1019): memory, shared (Redis), made, or joined a making. */
  onLookup?: (result: 'memory' | 'shared' | 'made' | 'joined') => void;
}

export class AnswerCache {
  private memory: MemoryLayer;
  private shared?: RedisLayer;
  private pending = new Map<string, Promise<Answer>>();
  private readonly now: () => number;
  private readonly told: NonNullable<AnswerCacheOptions['onLookup']>;

  constructor(opts: AnswerCacheOptions = {}) {
    this.memory = new MemoryLayer(opts.maxBytes ?? 64 * 1024 * 1024);
    if (opts.redis) this.shared = new RedisLayer(opts.redis, opts.redisPrefix ?? 'answer:', opts.redisTtlMs ?? 600_000);
    this.now = opts.now ?? Date.now;
    this.told = opts.onLookup ?? (() => undefined);
  }

  /** The entry under `key`, or the producer's (one producer per key at a time; a failure is not kept). */
  get(key: string, produce: () => Promise<Answer>): Answer | Promise<Answer> {
    const hit = this.memory.get(key, this.now());
    if (hit) {
      this.told('memory');
      return hit;
    }
    let p = this.pending.get(key);
    if (p) this.told('joined');
    else {
      p = this.load(key, produce).finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }

  private async load(key: string, produce: () => Promise<Answer>): Promise<Answer> {
    const shared = this.shared ? await this.shared.get(key, this.now()) : undefined;
    if (shared) {
      this.told('shared');
      this.memory.set(key, shared);
      return shared;
    }
    this.told('made');
    const made = await produce();
    if (made.expires > this.now()) {
      this.memory.set(key, made);
      this.shared?.set(key, made);
    } else made.transient = true;
    return made;
  }

  /** The entry's bytes in an encoding the request accepts (made once per entry). */
  encoded(a: Answer, acceptEncoding: string | undefined): { bytes: Buffer; encoding?: 'br' | 'gzip' } {
    // Small answers go as they are, as the compression plugin does below its threshold.
    if (!acceptEncoding || a.body.length < 1024) return { bytes: a.body };
    if (accepts(acceptEncoding, 'br')) {
      if (!a.br) {
        a.br = zlib.brotliCompressSync(a.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
        if (!a.transient) this.memory.grew(a.br.length);
      }
      return { bytes: a.br, encoding: 'br' };
    }
    if (accepts(acceptEncoding, 'gzip')) {
      if (!a.gzip) {
        a.gzip = zlib.gzipSync(a.body, { level: 6 });
        if (!a.transient) this.memory.grew(a.gzip.length);
      }
      return { bytes: a.gzip, encoding: 'gzip' };
    }
    return { bytes: a.body };
  }

  clear() {
    this.memory.clear();
  }
}

function accepts(header: string, coding: string): boolean {
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (name.trim().toLowerCase() !== coding) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}

/** The request's If-None-Match names this ETag (weak or strong, or `*`). */
export function notModified(req: FastifyRequest, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a cached answer to a visitor: ETag and `Cache-Control: public, no-cache` (a browser or a CDN may
 * keep it and must ask again, so it never shows a stale one), 304 for a GET or HEAD that already has it,
 * else the bytes in the best encoding the request accepts.
 */
export function sendAnswer(
  cache: AnswerCache,
  req: FastifyRequest,
  reply: FastifyReply,
  a: Answer,
  type = 'application/json; charset=utf-8',
) {
  void reply.header('etag', a.etag).header('cache-control', 'public, no-cache').header('vary', 'accept-encoding');
  if ((req.method === 'GET' || req.method === 'HEAD') && notModified(req, a.etag)) return reply.code(304).send();
  const { bytes, encoding } = cache.encoded(a, req.headers['accept-encoding']);
  void reply.type(type);
  if (encoding) void reply.header('content-encoding', encoding);
  return reply.send(bytes);
}
