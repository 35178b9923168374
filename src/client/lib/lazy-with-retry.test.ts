import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadWithRetry, RELOAD_FLAG_PREFIX, withTimeout, toChunkLoadError, ChunkLoadError } from './lazy-with-retry';

function fakeWindow() {
  const store = new Map<string, string>();
  const reload = vi.fn();
  vi.stubGlobal('window', {
    location: { reload },
    sessionStorage: {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
      removeItem: (key: string) => void store.delete(key),
    },
  });
  return { store, reload };
}

const settledWithin = async (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

describe('loadWithRetry', () => {
  let win: ReturnType<typeof fakeWindow>;
  beforeEach(() => {
    win = fakeWindow();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reloads the page once on a failed chunk and keeps waiting', async () => {
    const pending = loadWithRetry('edit', () => Promise.reject(new Error('Loading chunk edit failed')));
    expect(await settledWithin(pending, 20)).toBe(false);
    expect(win.reload).toHaveBeenCalledTimes(1);
    expect(win.store.has(`${RELOAD_FLAG_PREFIX}edit`)).toBe(true);
  });

  it('fails for real when it fails again after the reload', async () => {
    win.store.set(`${RELOAD_FLAG_PREFIX}edit`, '1');
    await expect(loadWithRetry('edit', () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(win.reload).not.toHaveBeenCalled();
  });

  it('clears the guard after a successful load so a later deploy may reload again', async () => {
    win.store.set(`${RELOAD_FLAG_PREFIX}edit`, '1');
    await expect(loadWithRetry('edit', () => Promise.resolve('section'))).resolves.toBe('section');
    expect(win.store.has(`${RELOAD_FLAG_PREFIX}edit`)).toBe(false);
  });
});

describe('withTimeout', () => {
  it('rejects with the chunk name once the time is up', async () => {
    await expect(withTimeout(new Promise(() => {}), 10, 'admin')).rejects.toThrow(
      'Loading chunk admin failed. (timeout: /dyn/admin)',
    );
  });
});

describe('toChunkLoadError', () => {
  it("names the chunk, the failure type and the script's address instead of the browser's wording", () => {
    const browser = new TypeError(
      'Failed to fetch dynamically imported module: http://localhost:3000/dyn/auth-AbC123.js?v=42',
    );
    const error = toChunkLoadError('auth', browser);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error).toMatchObject({ chunk: 'auth', type: 'error', url: 'http://localhost:3000/dyn/auth-AbC123.js?v=42' });
    expect(error.message).toBe('Loading chunk auth failed. (error: http://localhost:3000/dyn/auth-AbC123.js?v=42)');
    expect(error.message).not.toContain('Failed to fetch');
  });

  it('keeps a timeout as it is', async () => {
    const timeout = await withTimeout(new Promise(() => {}), 5, 'edit').catch((e: unknown) => e);
    expect(toChunkLoadError('edit', timeout)).toBe(timeout);
  });
});
