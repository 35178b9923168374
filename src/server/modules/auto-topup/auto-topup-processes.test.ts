// Issue 11, "How it is judged": two scheduler processes on one PostgreSQL fire one top-up per slot over a
// simulated week that crosses a daylight-saving change. Each scheduler is a process of its own
// (src/server/test/scheduler-process.ts) with its own connections; the test drives both clocks together,
// tick by tick. (PGlite is one process by design; auto-topup.test.ts runs two instances on it.)
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { and, count, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoTopupRuns, orders } from '../../db/schema';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { backend, createTestApp, type TestApp } from '../../test/helpers';
import * as money from '../money/money.service';

const root = path.resolve(import.meta.dirname, '../../../..');
const PRICE = 100;
let t: TestApp;
const schedulers: Array<{ proc: ChildProcess; next: () => Promise<string> }> = [];

function startScheduler(env: Record<string, string>) {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/test/scheduler-process.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error('scheduler process ended');
    return value as string;
  };
  return { proc, next };
}

describe.runIf(backend === 'postgres')('two scheduler processes on one PostgreSQL', () => {
  beforeAll(async () => {
    t = await createTestApp({ PRICE_STANDARD_TOPUP: String(PRICE) });
    await seedGeo(t.ctx);
    const env = {
      NODE_ENV: 'test',
      DATA_DIR: t.dataDir,
      DATABASE_URL: t.ctx.env.DATABASE_URL!,
      SESSION_SECRET: t.ctx.secret,
      PRICE_STANDARD_TOPUP: String(PRICE),
      LOG_LEVEL: 'silent',
    };
    for (let i = 0; i < 2; i++) schedulers.push(startScheduler(env));
    for (const s of schedulers) expect(await s.next()).toBe('ready');
  });
  afterAll(async () => {
    for (const s of schedulers) {
      const gone = new Promise((resolve) => s.proc.once('exit', resolve));
      s.proc.stdin!.write('exit\n');
      await gone;
    }
    await t.close();
  });

  it('fire exactly one top-up per slot over a week across the spring change', async () => {
    const now = new Date('2026-03-24T23:00:00Z');
    t.ctx.now = () => now;
    const { account } = await createAdvertiser(t.ctx);
    const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
    await money.adjustBalance(t.ctx, {
      actor: { id: admin },
      userId: account.id,
      amount: 12 * PRICE,
      reason: 'fund',
      idempotencyKey: `fund-${account.id}`,
    });
    const session = await createSession(t.ctx, account.id);
    // 01:30 London does not exist on 29 March (the clocks go from 01:00 to 02:00): that slot runs at 02:30.
    for (const time of ['01:30', '02:15']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/auto-topup/setTimer/${account.id}`,
        ...session,
        payload: { weekdays: [1, 2, 3, 4, 5, 6, 7], time },
      });
      expect(res.statusCode, res.body).toBe(200);
    }

    // Both processes tick at the same simulated instant, every 20 minutes, for a week.
    const answers: string[] = [];
    const from = Date.parse('2026-03-25T00:00:00Z');
    const to = Date.parse('2026-04-01T00:00:00Z');
    for (let tick = from; tick <= to; tick += 20 * 60_000) {
      for (const s of schedulers) s.proc.stdin!.write(`tick ${tick}\n`);
      answers.push(...(await Promise.all(schedulers.map((s) => s.next()))));
    }
    expect(answers.filter((a) => !a.startsWith('done'))).toEqual([]);
    // What the two processes say they did: 14 slots handled in all, each by one of them (the other, when it
    // looked at the same moment, found it `taken`).
    const handled = answers
      .map((a) => JSON.parse(a.slice('done '.length)) as Record<string, number>)
      .flatMap((counts) => Object.entries(counts))
      .filter(([outcome]) => outcome !== 'taken')
      .reduce((sum, [, n]) => sum + n, 0);
    expect(handled).toBe(14);

    const runs = await t.ctx.db
      .select()
      .from(autoTopupRuns)
      .where(eq(autoTopupRuns.userId, account.id))
      .orderBy(autoTopupRuns.slotAt);
    // 2 timers x 7 local dates, each once.
    expect(runs).toHaveLength(14);
    const days = (timerId: number) =>
      runs
        .filter((r) => r.timerId === timerId)
        .map((r) => DateTime.fromJSDate(r.slotAt, { zone: 'Europe/London' }).toISODate());
    for (const timerId of new Set(runs.map((r) => r.timerId)))
      expect(days(timerId)).toEqual([
        '2026-03-25',
        '2026-03-26',
        '2026-03-27',
        '2026-03-28',
        '2026-03-29',
        '2026-03-30',
        '2026-03-31',
      ]);
    expect(runs.find((r) => r.slotAt.toISOString() === '2026-03-29T01:30:00.000Z')).toBeDefined();
    // The balance paid 12; the last 2 failed; exactly 12 orders; nothing made or lost.
    expect(runs.filter((r) => r.status === 'succeeded')).toHaveLength(12);
    expect(runs.slice(-2).map((r) => r.status)).toEqual(['failed', 'failed']);
    const [paid] = await t.ctx.db
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.userId, account.id), eq(orders.source, 'auto_topup')));
    expect(paid.n).toBe(12);
    expect(await money.balanceOf(t.ctx, account.id)).toBe(0);
    expect(await money.ledgerProblems(t.ctx.db)).toEqual([]);
  });
});
