import { describe, expect, it } from 'vitest';
import { FreshBatch, FreshRead, FreshReads } from './fresh-read';

/** A read that ends when told to, recording what it was asked. */
function controlled<K>() {
  const reads: Array<{ keys: K[]; end: (v: string) => void; fail: (e: Error) => void }> = [];
  const read = (keys: ReadonlySet<K>) =>
    new Promise<string>((end, fail) => {
      reads.push({ keys: [...keys], end, fail });
    });
  return { reads, read };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('FreshRead', () => {
  it('gives a caller only a read that started after it, one read for all who came meanwhile', async () => {
    const { reads, read } = controlled<never>();
    const fresh = new FreshRead(() => read(new Set()));
    const first = fresh.get();
    const second = fresh.get();
    const third = fresh.get();
    expect(reads).toHaveLength(1);
    reads[0].end('a');
    expect(await first).toBe('a');
    await tick();
    expect(reads).toHaveLength(2);
    reads[1].end('b');
    expect(await Promise.all([second, third])).toEqual(['b', 'b']);
  });
});

describe('FreshReads', () => {
  it('keeps the rule per key', async () => {
    const { reads, read } = controlled<number>();
    const fresh = new FreshReads((k: number) => read(new Set([k])));
    const a1 = fresh.get(1);
    const b1 = fresh.get(2);
    const a2 = fresh.get(1);
    expect(reads.map((r) => r.keys)).toEqual([[1], [2]]);
    reads[0].end('a');
    reads[1].end('b');
    expect([await a1, await b1]).toEqual(['a', 'b']);
    await tick();
    expect(reads.map((r) => r.keys)).toEqual([[1], [2], [1]]);
    reads[2].end('a2');
    expect(await a2).toBe('a2');
  });
});

describe('FreshBatch', () => {
  it('reads the keys of every caller it serves, each caller only in a read started after it', async () => {
    const { reads, read } = controlled<number>();
    const batch = new FreshBatch(read);
    const first = batch.get(1);
    expect(reads.map((r) => r.keys)).toEqual([[1]]);
    // Arrived while the first read runs: the next read, with their keys (and none for a caller naming none).
    const later = [batch.get(2), batch.get(), batch.get(3), batch.get(2)];
    expect(reads).toHaveLength(1);
    reads[0].end('v1');
    expect(await first).toBe('v1');
    await tick();
    expect(reads.map((r) => r.keys)).toEqual([[1], [2, 3]]);
    // Arrived while the second runs: not served by it, though it has not ended yet.
    const third = batch.get(1);
    reads[1].end('v2');
    expect(await Promise.all(later)).toEqual(['v2', 'v2', 'v2', 'v2']);
    await tick();
    expect(reads.map((r) => r.keys)).toEqual([[1], [2, 3], [1]]);
    reads[2].end('v3');
    expect(await third).toBe('v3');
  });

  it('does not keep a failure: the callers of a failed read get the error, the next read runs', async () => {
    const { reads, read } = controlled<number>();
    const batch = new FreshBatch(read);
    const first = batch.get(1);
    const second = batch.get(2);
    reads[0].fail(new Error('down'));
    await expect(first).rejects.toThrow('down');
    await tick();
    reads[1].end('ok');
    expect(await second).toBe('ok');
    const third = batch.get();
    expect(reads).toHaveLength(3);
    reads[2].end('ok2');
    expect(await third).toBe('ok2');
  });
});
