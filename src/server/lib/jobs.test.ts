import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { createTestApp, type TestApp } from '../test/helpers';
import { claimJobs, enqueue, runDueJobs } from './jobs';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const status = (id: number) =>
  queryRows<{ status: string; attempts: number; last_error: string | null }>(
    t.ctx.db,
    sql`select status, attempts, last_error from jobs where id = ${id}`,
  ).then((r) => r[0]);

describe('job queue', () => {
  it('runs a due job once and marks it done', async () => {
    const seen: unknown[] = [];
    const id = await enqueue(t.ctx.db, 'hello', { n: 1 }, t.ctx.now());
    const handlers = { hello: async (_ctx: unknown, payload: unknown) => void seen.push(payload) };
    expect(await runDueJobs(t.ctx, handlers)).toBe(1);
    expect(await runDueJobs(t.ctx, handlers)).toBe(0);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await status(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('does not hand one job to two workers', async () => {
    const id = await enqueue(t.ctx.db, 'lease', {}, t.ctx.now());
    const now = new Date();
    const [a, b] = await Promise.all([claimJobs(t.ctx.db, now), claimJobs(t.ctx.db, now)]);
    const claimed = [...a, ...b].filter((j) => j.id === id);
    expect(claimed).toHaveLength(1);
    // Until the lease expires nobody else gets it.
    expect((await claimJobs(t.ctx.db, now)).some((j) => j.id === id)).toBe(false);
    expect((await claimJobs(t.ctx.db, new Date(now.getTime() + 301_000))).some((j) => j.id === id)).toBe(true);
  });

  it('retries a failing job later and records the error', async () => {
    const id = await enqueue(t.ctx.db, 'flaky', {}, t.ctx.now());
    await runDueJobs(t.ctx, {
      flaky: async () => {
        throw new Error('smtp down');
      },
    });
    expect(await status(id)).toMatchObject({ status: 'queued', attempts: 1, last_error: 'smtp down' });
    expect(await runDueJobs(t.ctx, {})).toBe(0); // backed off
  });

  it('does not run jobs scheduled for later', async () => {
    const id = await enqueue(t.ctx.db, 'later', {}, new Date(Date.now() + 3_600_000));
    expect(await runDueJobs(t.ctx, { later: async () => undefined })).toBe(0);
    expect(await status(id)).toMatchObject({ status: 'queued', attempts: 0 });
  });
});
