import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { Gate } from './gate';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('Gate', () => {
  it('runs at most `size` at once, the others in the order they came', async () => {
    const gate = new Gate(2, 10);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        gate.run(async () => {
          running += 1;
          most = Math.max(most, running);
          await tick();
          order.push(i);
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('refuses with 429 when too many wait, and frees its place after a failure', async () => {
    const gate = new Gate(1, 2);
    const runs = Array.from({ length: 4 }, () => gate.run(tick));
    const results = await Promise.allSettled(runs);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    const refused = (results[3] as PromiseRejectedResult).reason as AppError;
    expect(refused.statusCode).toBe(429);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'after')).toBe('after');
  });
});
