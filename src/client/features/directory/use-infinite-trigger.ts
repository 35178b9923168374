// The infinite scroll of spec section 2: an IntersectionObserver watches a trigger element at the
// end of the list. The list decides what a sighting means (first: page 1, later: page + 1); this
// hook only reports sightings, and after a reset (a first-page reload) ignores them for 250 ms so
// the still-visible trigger of the emptied list cannot skip ahead.
import { useCallback, useEffect, useRef } from 'react';
import { INFINITE_SCROLL_REARM_MS } from '#shared/constants.ts';

export interface InfiniteTriggerOptions {
  /** Changing it re-arms after INFINITE_SCROLL_REARM_MS. */
  resetKey: string;
  /** While true, sightings are ignored; when it turns false the trigger is looked at again. */
  busy: boolean;
  /** How far below the viewport the trigger counts as seen. */
  rootMargin?: string;
}

export function useInfiniteTrigger<T extends Element>(
  onSight: () => void,
  { resetKey, busy, rootMargin = '0px 0px 200px 0px' }: InfiniteTriggerOptions,
) {
  const element = useRef<T | null>(null);
  const observer = useRef<IntersectionObserver | null>(null);
  const armed = useRef(true);
  const latest = useRef({ onSight, busy });
  latest.current = { onSight, busy };

  // IntersectionObserver only reports changes; observing again yields a fresh report of the
  // current state, which is how a trigger that never left the viewport is "seen" again.
  const lookAgain = useCallback(() => {
    const target = element.current;
    if (observer.current && target) {
      observer.current.unobserve(target);
      observer.current.observe(target);
    }
  }, []);

  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        if (!armed.current || latest.current.busy) return;
        latest.current.onSight();
      },
      { rootMargin },
    );
    observer.current = io;
    io.observe(target);
    return () => {
      io.disconnect();
      observer.current = null;
    };
  }, [rootMargin]);

  const firstKey = useRef(resetKey);
  useEffect(() => {
    if (firstKey.current === resetKey) return;
    firstKey.current = resetKey;
    armed.current = false;
    const timer = setTimeout(() => {
      armed.current = true;
      lookAgain();
    }, INFINITE_SCROLL_REARM_MS);
    return () => clearTimeout(timer);
  }, [resetKey, lookAgain]);

  useEffect(() => {
    if (!busy) lookAgain();
  }, [busy, lookAgain]);

  return element;
}
