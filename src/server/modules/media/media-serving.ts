// Media files answered from the MediaStore, whichever it is: /media/<key> for public objects (when no
// S3_PUBLIC_URL sends browsers elsewhere) and the authorised routes' private files. Conditional requests
// (ETag, 304) and single byte ranges (a video's seek bar, Safari asks nothing else) are handled here,
// and the body streams from the store: a 200 MB video never sits in memory.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { PUBLIC_CACHE_CONTROL, type ByteRange, type MediaStore, type Visibility } from '../../lib/media-store';

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9/_.-]*$/;

/** One range of `size` bytes from a Range header; null for none or one we answer whole (several ranges). */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    // The last n bytes.
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const matches = (header: string | undefined, etag: string) =>
  !!header &&
  header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);

/** Sends one stored object as the answer: 200, 206, 304 or 416; 404 when there is none. */
export async function sendObject(
  request: FastifyRequest,
  reply: FastifyReply,
  store: MediaStore,
  visibility: Visibility,
  key: string,
  cacheControl: string,
) {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw notFound();
  const rangeHeader = request.headers.range;
  const ifNoneMatch = request.headers['if-none-match'];
  const ifRange = request.headers['if-range'];
  // Only a conditional or partial request needs the size and validator before the body.
  const info = rangeHeader || ifNoneMatch || request.method === 'HEAD' ? await store.stat(visibility, key) : undefined;
  if (info === null) throw notFound();
  void reply.header('cache-control', cacheControl).header('accept-ranges', 'bytes');
  if (info) {
    void reply.header('etag', info.etag).header('last-modified', info.lastModified.toUTCString());
    if (matches(ifNoneMatch, info.etag)) return reply.code(304).send();
  }
  let range = info && (!ifRange || ifRange === info.etag) ? parseRange(rangeHeader, info.size) : null;
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${info!.size}`).send();
  }
  if (request.method === 'HEAD') {
    return reply.type(info!.contentType).header('content-length', info!.size).send();
  }
  const object = await store.open(visibility, key, range ?? undefined);
  if (!object) throw notFound();
  range = object.range;
  void reply
    .type(object.contentType)
    .header('etag', object.etag)
    .header('last-modified', object.lastModified.toUTCString());
  if (range) {
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
      .header('content-length', range.end - range.start + 1)
      .send(object.body);
  }
  return reply.header('content-length', object.size).send(object.body);
}

/** /media/<key>: the public side of the store, cached for good (keys are random and never reused). */
export const publicMediaRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get<{ Params: { '*': string } }>('/media/*', { compress: false }, async (request, reply) =>
    sendObject(request, reply, ctx.media, 'public', request.params['*'], PUBLIC_CACHE_CONTROL),
  );
};
