// Spec section 9: "Resize debounce: 250 ms". The figure is written here, not read from the constant, so a
// changed constant fails as surely as a listener that stopped debouncing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onResizeSettled } from './window-resize';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const resize = (target: EventTarget) => target.dispatchEvent(new Event('resize'));

describe('onResizeSettled', () => {
  it('answers once, 250 ms after the last resize of a burst', () => {
    const target = new EventTarget();
    const settled = vi.fn();
    onResizeSettled(settled, target);
    resize(target);
    vi.advanceTimersByTime(100);
    resize(target);
    vi.advanceTimersByTime(200);
    resize(target);
    vi.advanceTimersByTime(249);
    expect(settled).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(settled).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(settled).toHaveBeenCalledTimes(1);
  });

  it('stops listening, and drops a call still waiting, when cleaned up', () => {
    const target = new EventTarget();
    const settled = vi.fn();
    const stop = onResizeSettled(settled, target);
    resize(target);
    stop();
    vi.advanceTimersByTime(250);
    resize(target);
    vi.advanceTimersByTime(250);
    expect(settled).not.toHaveBeenCalled();
  });
});
