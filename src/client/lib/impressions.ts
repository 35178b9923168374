// Impressions (spec section 1, docs/decisions/0006): profile cards seen at least half on screen are
// collected per page address as {pageAddress: [ids]} and flushed 5 s after the last new one, to
// POST /api/directory/impressions. A page that goes away flushes at once (pagehide, or hidden on
// phones, where pagehide may never come) with a keepalive request that outlives the page.
import { CSRF_COOKIE, CSRF_HEADER, IMPRESSIONS_FLUSH_MS } from '#shared/constants.ts';
import { apiUrl } from './api';
import { readCookie } from './cookies';

/** The server's limits (ImpressionsBody): 500 ids per page address, addresses up to 500 characters. */
const MAX_IDS_PER_PAGE = 500;
const MAX_ADDRESS = 500;
/** Half the card on screen (ISO/IAB viewability uses the same share). */
export const IMPRESSION_THRESHOLD = 0.5;

const pending = new Map<string, Set<number>>();
let timer: ReturnType<typeof setTimeout> | undefined;
let installed = false;

export function pageAddress(): string {
  return `${window.location.pathname}${window.location.search}`.slice(0, MAX_ADDRESS);
}

export function recordImpression(id: number, page: string = pageAddress()): void {
  let ids = pending.get(page);
  if (!ids) pending.set(page, (ids = new Set()));
  if (ids.has(id)) return;
  ids.add(id);
  install();
  // "After 5 seconds of quiet": every new impression pushes the flush back.
  clearTimeout(timer);
  timer = setTimeout(flushImpressions, IMPRESSIONS_FLUSH_MS);
}

/** Sends what is pending. Failures are dropped: impressions are statistics, not worth a dialog. */
export function flushImpressions(): void {
  clearTimeout(timer);
  timer = undefined;
  if (pending.size === 0) return;
  const impressions: Record<string, number[]> = {};
  for (const [page, ids] of pending) impressions[page] = [...ids].slice(0, MAX_IDS_PER_PAGE);
  pending.clear();
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  // sendBeacon cannot carry the CSRF header a signed-in POST needs; fetch with keepalive can.
  const csrf = readCookie(CSRF_COOKIE);
  if (csrf) headers[CSRF_HEADER] = csrf;
  try {
    void fetch(apiUrl('/directory/impressions'), {
      method: 'POST',
      headers,
      body: JSON.stringify({ impressions }),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // A browser that refuses keepalive on unload: nothing else to do.
  }
}

function install(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('pagehide', flushImpressions);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushImpressions();
  });
}

// One observer for every card on the page.
let observer: IntersectionObserver | null = null;
const watched = new Map<Element, number>();

/** Watches a card; its id is recorded once, the first time at least half of it is on screen. */
export function observeImpression(element: Element, id: number): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => undefined;
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting || entry.intersectionRatio < IMPRESSION_THRESHOLD) continue;
        const seen = watched.get(entry.target);
        if (seen === undefined) continue;
        recordImpression(seen);
        watched.delete(entry.target);
        observer?.unobserve(entry.target);
      }
    },
    { threshold: IMPRESSION_THRESHOLD },
  );
  watched.set(element, id);
  observer.observe(element);
  return () => {
    watched.delete(element);
    observer?.unobserve(element);
  };
}
