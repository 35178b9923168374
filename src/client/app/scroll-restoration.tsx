// Where the window scrolls after a navigation, what React Router's <ScrollRestoration> did (it needs the
// data router, which the first route no longer loads: docs/decisions/0710). A new entry starts at the
// top, or at its #anchor; Back and Forward return to where the visitor was on that entry, after a
// reload too. Positions are kept per history entry (the router's location key), as React Router does.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';

const STORAGE_KEY = 'scroll-positions';
/** The key of a first visit's entry, which every fresh page load shares: never restored. */
const FIRST_ENTRY_KEY = 'default';

function readPositions(): Record<string, number> {
  try {
    return JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

export function ScrollRestoration() {
  const location = useLocation();
  const positions = useRef<Record<string, number> | null>(null);
  const shown = useRef<string | null>(null);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    let frame = 0;
    const remember = () => {
      frame = 0;
      if (shown.current !== null) (positions.current ??= readPositions())[shown.current] = window.scrollY;
    };
    const onScroll = () => {
      frame ||= window.requestAnimationFrame(remember);
    };
    const onHide = () => {
      remember();
      try {
        window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current ?? {}));
      } catch {
        // storage blocked: positions last for this page
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onHide);
      window.cancelAnimationFrame(frame);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  useLayoutEffect(() => {
    const first = shown.current === null;
    shown.current = location.key;
    const saved = location.key === FIRST_ENTRY_KEY ? undefined : (positions.current ??= readPositions())[location.key];
    if (saved !== undefined) window.scrollTo(0, saved);
    // The page as loaded stays where the browser has it (the server's screen, already at the top).
    else if (first) return;
    else if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location.key, location.hash]);

  return null;
}
