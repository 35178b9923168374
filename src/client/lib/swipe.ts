// Horizontal swipes, for the profile modal (next/previous profile) and the gallery (next/previous photo).
export interface TouchPoint {
  x: number;
  y: number;
}

/**
 * The horizontal direction of a finished touch: 1 to the right, -1 to the left, 0 when it was too short
 * or mostly vertical (that is scrolling, not a swipe).
 */
export function swipeDirection(
  start: TouchPoint | null,
  end: { clientX: number; clientY: number } | undefined,
  minPx: number,
): -1 | 0 | 1 {
  if (!start || !end) return 0;
  const dx = end.clientX - start.x;
  const dy = end.clientY - start.y;
  if (Math.abs(dx) < minPx || Math.abs(dx) <= Math.abs(dy) * 1.5) return 0;
  return dx > 0 ? 1 : -1;
}
