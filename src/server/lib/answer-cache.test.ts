import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AnswerCache, makeAnswer } from './answer-cache';
import { FreshRead } from './fresh-read';

describe('AnswerCache', () => {
  it('makes an answer once per key, also for concurrent misses, and keeps the bytes', async () => {
    const cache = new AnswerCache();
    let made = 0;
    const produce = async () => {
      made++;
      return makeAnswer({ n: made }, Infinity);
    };
    const [a, b] = await Promise.all([cache.get('k', produce), cache.get('k', produce)]);
    expect(made).toBe(1);
    expect(a).toBe(b);
    expect(JSON.parse((await cache.get('k', produce)).body.toString())).toEqual({ n: 1 });
    await cache.get('other', produce);
    expect(made).toBe(2);
  });

  it('does not keep a failure, and drops an entry past its time', async () => {
    let now = 1000;
    const cache = new AnswerCache({ now: () => now });
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const a = await cache.get('k', async () => makeAnswer({ ok: 1 }, 50, undefined, now));
    expect(await cache.get('k', async () => makeAnswer({ ok: 2 }, 50, undefined, now))).toBe(a);
    now += 51;
    expect(
      JSON.parse((await cache.get('k', async () => makeAnswer({ ok: 3 }, 50, undefined, now))).body.toString()),
    ).toEqual({ ok: 3 });
  });

  it('evicts the least recently used entries beyond its size', async () => {
    const cache = new AnswerCache({ maxBytes: 3 * 1300 });
    const big = (tag: string) => async () => makeAnswer({ tag, pad: 'x'.repeat(1000) }, Infinity);
    for (const k of ['a', 'b', 'c']) await cache.get(k, big(k));
    await cache.get('a', big('a2')); // a is used again, b is now the oldest
    await cache.get('d', big('d'));
    expect(JSON.parse((await cache.get('a', big('a3'))).body.toString()).tag).toBe('a');
    expect(JSON.parse((await cache.get('b', big('b2'))).body.toString()).tag).toBe('b2');
  });

  it('sends brotli or gzip of the same bytes, made once, and small answers as they are', async () => {
    const cache = new AnswerCache();
    const a = await cache.get('big', async () => makeAnswer({ pad: 'directory '.repeat(500) }, Infinity));
    const br = cache.encoded(a, 'gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(zlib.brotliDecompressSync(br.bytes).equals(a.body)).toBe(true);
    expect(cache.encoded(a, 'br').bytes).toBe(br.bytes);
    const gz = cache.encoded(a, 'gzip, br;q=0');
    expect(gz.encoding).toBe('gzip');
    expect(zlib.gunzipSync(gz.bytes).equals(a.body)).toBe(true);
    expect(cache.encoded(a, 'identity').encoding).toBeUndefined();
    const small = makeAnswer({ a: 1 }, Infinity);
    expect(cache.encoded(small, 'br')).toEqual({ bytes: small.body });
  });
});

describe('FreshRead', () => {
  it('never gives a caller a value read before its call, and shares reads among waiting callers', async () => {
    let reads = 0;
    const releases: Array<() => void> = [];
    const fresh = new FreshRead(
      () =>
        new Promise<number>((resolve) => {
          const n = ++reads;
          releases.push(() => resolve(n));
        }),
    );
    const first = fresh.get(); // read 1 starts
    const second = fresh.get(); // read 1 started before: waits for read 2
    const third = fresh.get(); // joins read 2
    expect(reads).toBe(1);
    releases[0]();
    expect(await first).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(reads).toBe(2);
    releases[1]();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
  });
});
