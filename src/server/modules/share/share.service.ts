// The Tumblr share counter through our server (docs/decisions/0805, replacing the JSONP of 0200): one
// fetch of Tumblr's JSON stats per profile address every 10 minutes, whoever asks, with a 3 s limit.
import type { AppContext } from '../../context';
import { ValidationError } from '../../lib/errors';
import { TtlCache } from '../../lib/ttl-cache';
import { trustedHost } from '../seo/seo.service';
import { msg } from '#shared/api/messages.ts';

const caches = new WeakMap<AppContext, TtlCache<number | null>>();

/** Only the address of one of our profiles is asked for: the proxy fetches nothing else. */
export function profileAddress(ctx: AppContext, url: string, host: string | undefined): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw ValidationError.field('url', msg('share.notProfileUrl'));
  }
  const ours = ctx.env.PUBLIC_URL ? new URL(ctx.env.PUBLIC_URL).host : trustedHost(ctx, host);
  if (!/^https?:$/.test(u.protocol) || u.host !== ours || !/^\/profile\/\d{1,10}$/.test(u.pathname) || u.search)
    throw ValidationError.field('url', msg('share.notProfileUrl'));
  return `${u.protocol}//${u.host}${u.pathname}`;
}

export async function tumblrCount(ctx: AppContext, url: string): Promise<number | null> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new TtlCache(600_000, 5000)));
  return cache.get(url, () => fetchCount(ctx, url));
}

async function fetchCount(ctx: AppContext, url: string): Promise<number | null> {
  try {
    const res = await fetch(`${ctx.env.TUMBLR_STATS_URL}?url=${encodeURIComponent(url)}`, {
      signal: AbortSignal.timeout(3000),
      headers: { accept: 'application/json' },
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { response?: { note_count?: unknown } } | null;
    const count = body?.response?.note_count;
    return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null;
  } catch {
    return null;
  }
}
