import { describe, expect, it } from 'vitest';
import { swipeDirection } from './swipe';

const end = (x: number, y: number) => ({ clientX: x, clientY: y });

describe('swipeDirection', () => {
  it('tells right from left for a long, mostly horizontal move', () => {
    expect(swipeDirection({ x: 100, y: 100 }, end(200, 110), 60)).toBe(1);
    expect(swipeDirection({ x: 200, y: 100 }, end(100, 90), 60)).toBe(-1);
  });
  it('ignores short, vertical and unfinished moves', () => {
    expect(swipeDirection({ x: 100, y: 100 }, end(140, 100), 60)).toBe(0);
    expect(swipeDirection({ x: 100, y: 100 }, end(200, 300), 60)).toBe(0);
    expect(swipeDirection(null, end(300, 100), 60)).toBe(0);
    expect(swipeDirection({ x: 100, y: 100 }, undefined, 60)).toBe(0);
  });
});
