import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

function fakeStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

describe('bookmarks', () => {
  let storage: ReturnType<typeof fakeStorage>;
  beforeEach(() => {
    vi.resetModules();
    storage = fakeStorage({ bookmarks: JSON.stringify([5, '7', 0, 'x', null, -3, 5, 2.5]) });
    vi.stubGlobal('window', { localStorage: storage, addEventListener: () => undefined });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads only non-zero numeric ids, once each', async () => {
    const { getBookmarks, cleanBookmarkIds } = await import('./bookmarks');
    expect(getBookmarks()).toEqual([5, 7]);
    expect(cleanBookmarkIds('nope')).toEqual([]);
  });

  it('adds at the front and saves the cleaned list under "bookmarks"', async () => {
    const { addBookmark, removeBookmark, getBookmarks } = await import('./bookmarks');
    addBookmark(9);
    addBookmark(7);
    expect(getBookmarks()).toEqual([7, 9, 5]);
    expect(JSON.parse(storage.data.get('bookmarks')!)).toEqual([7, 9, 5]);
    removeBookmark(9);
    expect(JSON.parse(storage.data.get('bookmarks')!)).toEqual([7, 5]);
  });
});
