import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { perContext } from './per-context';

describe('perContext', () => {
  it('makes one value per context, on its first call, and gives it again after', () => {
    const made: string[] = [];
    const valueOf = perContext((ctx) => {
      made.push(ctx.dbKind);
      return { kind: ctx.dbKind };
    });
    const a = { dbKind: 'pglite' } as AppContext;
    const b = { dbKind: 'postgres' } as AppContext;
    expect(made).toEqual([]);
    const first = valueOf(a);
    expect(valueOf(a)).toBe(first);
    expect(valueOf(b)).not.toBe(first);
    expect(valueOf(b)).toEqual({ kind: 'postgres' });
    expect(made).toEqual(['pglite', 'postgres']);
  });
});
