import { describe, expect, it } from 'vitest';
import { neighbourOf } from './profile-modal-store';

describe('neighbourOf', () => {
  const list = (ids: number[], more: number[] | null = null) => ({
    ids: () => ids,
    loadMore: async () => (more ? (ids = [...ids, ...more]) : null),
  });

  it('steps forward (+) and back (-) through the loaded ids', async () => {
    expect(await neighbourOf(2, 1, list([1, 2, 3]))).toBe(3);
    expect(await neighbourOf(2, -1, list([1, 2, 3]))).toBe(1);
    expect(await neighbourOf(1, -1, list([1, 2, 3]))).toBeNull();
    expect(await neighbourOf(9, 1, list([1, 2, 3]))).toBeNull();
    expect(await neighbourOf(2, 1, null)).toBeNull();
  });

  it('loads the next page at the end of the list', async () => {
    expect(await neighbourOf(3, 1, list([1, 2, 3], [4, 5]))).toBe(4);
    expect(await neighbourOf(3, 1, list([1, 2, 3], null))).toBeNull();
  });
});
