// Lazy sections that survive a deploy (DESIGN.md, after Outline's lazyWithRetry). A tab opened
// before a deploy asks for chunk files that no longer exist; the first failure reloads the page
// once to get the new index.html, and a sessionStorage flag stops a reload loop when the failure
// is real (offline, server down), in which case the error reaches the section's error boundary.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { SECTION_LOAD_TIMEOUT_MS } from '#shared/constants.ts';

export const RELOAD_FLAG_PREFIX = 'lazy-reloaded:';

export function withTimeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Loading chunk ${name} failed. (timeout)`)), ms);
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
  const preload = () => (pending ??= withTimeout(load(), timeoutMs, name));
  const component = lazy(async () => ({ default: await loadWithRetry(name, preload) }));
  return Object.assign(component, { preload });
}
