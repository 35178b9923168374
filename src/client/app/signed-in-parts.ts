// The shell's code that only a signed-in user runs (docs/decisions/0712, issue 14: the first route holds
// what a visitor runs): the admin's search box and modal host, and the unconfirmed-email banner. Each
// loads once the user data (spec section 1, fetched only with a session) says it is needed. Until it is
// there the shell shows the top bar as before the user data arrived, so the signed-in bar, the admin's
// search box and the banner appear in one change instead of two.
import { useEffect, useState } from 'react';
import type { CurrentUser } from '#client/lib/app-data.ts';
import { loadWithRetry } from '#client/lib/lazy-with-retry.ts';

export interface SignedInParts {
  admin?: typeof import('./admin-parts');
  banner?: typeof import('#client/features/auth/email-banner.tsx');
}

const loaders: { [K in keyof SignedInParts]-?: () => Promise<NonNullable<SignedInParts[K]>> } = {
  admin: () => import('./admin-parts'),
  banner: () => import('#client/features/auth/email-banner.tsx'),
};

/** Loaded parts, kept for the page's life; `false`: it failed after the reload, shown without it. */
const loaded: { [K in keyof SignedInParts]?: SignedInParts[K] | false } = {};
const pending = new Map<keyof SignedInParts, Promise<void>>();

function load(key: keyof SignedInParts): Promise<void> {
  let promise = pending.get(key);
  if (!promise) {
    // A tab opened before a deploy reloads once for the new files, like a section (lazy-with-retry).
    promise = loadWithRetry<unknown>(`shell-${key}`, loaders[key]).then(
      (module) => {
        (loaded as Record<string, unknown>)[key] = module;
      },
      () => {
        loaded[key] = false;
      },
    );
    pending.set(key, promise);
  }
  return promise;
}

/** The parts this user needs, and whether all of them are there (or given up on). */
export function useSignedInParts(user: CurrentUser | null | undefined): { parts: SignedInParts; ready: boolean } {
  const needed: (keyof SignedInParts)[] = [];
  if (user?.role === 'admin') needed.push('admin');
  if (user && !user.email_verified) needed.push('banner');
  const key = needed.join();
  const [, setVersion] = useState(0);
  const ready = needed.every((part) => loaded[part] !== undefined);
  useEffect(() => {
    if (!key) return;
    let live = true;
    void Promise.all(key.split(',').map((part) => load(part as keyof SignedInParts))).then(() => {
      if (live) setVersion((v) => v + 1);
    });
    return () => {
      live = false;
    };
  }, [key]);
  return { parts: { admin: loaded.admin || undefined, banner: loaded.banner || undefined }, ready };
}
