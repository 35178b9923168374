// Lazy sections that survive a deploy (DESIGN.md, after Outline's lazyWithRetry). A tab opened
// before a deploy asks for chunk files that no longer exist; the first failure reloads the page
// once to get the new index.html, and a sessionStorage flag stops a reload loop when the failure
// is real (offline, server down), in which case the error reaches the section's error boundary.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { SECTION_LOAD_TIMEOUT_MS } from '#shared/constants.ts';

export const RELOAD_FLAG_PREFIX = 'lazy-reloaded:';

/**
 * Spec section 8: a section script that fails to load raises 'Loading chunk {n} failed' with the failure
 * type and the address (the browser's own wording, "Failed to fetch dynamically imported module", is not
 * shown). `type` is 'timeout' when it took too long, 'error' when the browser could not load it.
 */
export class ChunkLoadError extends Error {
  constructor(
    readonly chunk: string,
    readonly type: 'timeout' | 'error',
    readonly url: string,
  ) {
    super(`Loading chunk ${chunk} failed. (${type}: ${url})`);
    this.name = 'ChunkLoadError';
  }
}

/** The section's failure as a ChunkLoadError, with the script's address when the browser named it. */
export function toChunkLoadError(chunk: string, error: unknown): ChunkLoadError {
  if (error instanceof ChunkLoadError) return error;
  const text = error instanceof Error ? error.message : String(error);
  const url = /(https?:\/\/[^\s'"]+)/.exec(text)?.[1] ?? `/dyn/${chunk}`;
  return new ChunkLoadError(chunk, 'error', url);
}

export function withTimeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(name, 'timeout', `/dyn/${name}`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const session = {
  get(key: string): string | null {
    try {
      return window.sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string | null): boolean {
    try {
      if (value === null) window.sessionStorage.removeItem(key);
      else window.sessionStorage.setItem(key, value);
      return true;
    } catch {
      // Without storage the loop guard cannot work, so never reload.
      return false;
    }
  },
};

export type PreloadableLazy<P extends object> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts the download early (e.g. alongside the i18n start-up); later renders reuse it. */
  preload: () => Promise<ComponentType<P>>;
  /**
   * The component once loaded: rendering it directly does not suspend (React.lazy suspends once even
   * for a module already there), so a page whose first render waited for its section shows at once.
   */
  resolved?: ComponentType<P>;
};

/**
 * Resolves what `load` resolves. On failure (or after `timeoutMs`) it reloads the page once per
 * `name` and never settles, so the spinner stays up until the new page replaces this one; a
 * second failure after that reload rejects.
 */
export async function loadWithRetry<T>(name: string, load: () => Promise<T>): Promise<T> {
  const flag = `${RELOAD_FLAG_PREFIX}${name}`;
  try {
    const value = await load();
    // Loaded fine: a later deploy may reload once again.
    session.set(flag, null);
    return value;
  } catch (error) {
    if (!session.get(flag) && session.set(flag, String(Date.now()))) {
      window.location.reload();
      return new Promise<never>(() => {});
    }
    throw error;
  }
}

export function lazyWithRetry<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
  timeoutMs = SECTION_LOAD_TIMEOUT_MS,
): PreloadableLazy<P> {
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (pending ??= withTimeout(load(), timeoutMs, name).then((loaded) => {
      result.resolved = loaded;
      return loaded;
    }));
  const component = lazy(async () => {
    try {
      return { default: await loadWithRetry(name, preload) };
    } catch (error) {
      pending = undefined; // a retry loads afresh
      throw toChunkLoadError(name, error);
    }
  });
  const result: PreloadableLazy<P> = Object.assign(component, { preload });
  return result;
}
