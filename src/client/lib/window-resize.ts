// The window's size, read once it has settled: a drag of the window's edge or a phone's rotation fires
// `resize` on every frame, and what reacts to it (closing the phone menu) needs only the last one.
import { RESIZE_DEBOUNCE_MS } from '#shared/constants.ts';

type ResizeTarget = Pick<Window, 'addEventListener' | 'removeEventListener'>;

/**
 * Calls `settled` once the window has not changed size for RESIZE_DEBOUNCE_MS (spec section 9: 250 ms).
 * Returns the function that stops listening (an effect's cleanup), which also drops a call still waiting.
 */
export function onResizeSettled(settled: () => void, target: ResizeTarget = window): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const resized = () => {
    clearTimeout(timer);
    timer = setTimeout(settled, RESIZE_DEBOUNCE_MS);
  };
  target.addEventListener('resize', resized);
  return () => {
    clearTimeout(timer);
    target.removeEventListener('resize', resized);
  };
}
