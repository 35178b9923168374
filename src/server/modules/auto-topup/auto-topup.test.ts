// Auto-topup: one top-up per slot, however many instances tick, across daylight-saving changes; late
// slots within the grace period run, older ones are missed; a failure is told by notice and mail.
import fs from 'node:fs';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { openRuntime, type Runtime } from '../../bootstrap';
import { autoTopupRuns, jobs, orders } from '../../db/schema';
import { runDueJobs } from '../../lib/jobs';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { backend, createTestApp, type TestApp } from '../../test/helpers';
import * as money from '../money/money.service';
import { sendFailedMail } from './auto-topup.mail';
import { FAILED_MAIL_JOB, runDueSlots } from './scheduler.service';
import { slotsBetween } from './slots';

let t: TestApp;
let other: Runtime | null = null;
/** The second instance: its own connection pool on PostgreSQL; on PGlite the same database. */
let ctxB: AppContext;
let clock = new Date();
const PRICE = 100;

beforeAll(async () => {
  t = await createTestApp({ PRICE_STANDARD_TOPUP: String(PRICE) });
  await seedGeo(t.ctx);
  t.ctx.now = () => clock;
  if (backend === 'postgres') {
    other = await openRuntime({ ...t.ctx.env }, { inMemory: true });
    ctxB = { ...other.ctx, now: () => clock };
  } else ctxB = { ...t.ctx, now: () => clock };
});
afterAll(async () => {
  await other?.close();
  await t.close();
});

const at = (iso: string) => new Date(iso);
const London = 'Europe/London';

async function advertiserWithTimers(
  balance: number,
  timers: Array<{ weekdays: number[]; time: string; weekly_budget?: number }>,
) {
  const { account } = await createAdvertiser(t.ctx);
  const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
  if (balance)
    await money.adjustBalance(t.ctx, {
      actor: { id: admin },
      userId: account.id,
      amount: balance,
      reason: 'fund',
      idempotencyKey: `fund-${account.id}`,
    });
  const session = await createSession(t.ctx, account.id);
  for (const timer of timers) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auto-topup/setTimer/${account.id}`,
      ...session,
      payload: timer,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return { id: account.id, session };
}

/** Both instances tick together every `stepMin` minutes from `from` to `to`. */
async function simulate(from: Date, to: Date, stepMin: number) {
  for (let now = from.getTime(); now <= to.getTime(); now += stepMin * 60_000) {
    clock = new Date(now);
    await Promise.all([runDueSlots(t.ctx), runDueSlots(ctxB)]);
  }
}

const runsOf = (userId: number) =>
  t.ctx.db.select().from(autoTopupRuns).where(eq(autoTopupRuns.userId, userId)).orderBy(autoTopupRuns.slotAt);

describe('slots', () => {
  it('one slot per local date: a skipped time moves forward, a repeated time is its first occurrence', () => {
    const daily = { weekdays: [1, 2, 3, 4, 5, 6, 7], localTime: '01:30' };
    const spring = slotsBetween(daily, London, at('2026-03-28T00:00:00Z'), at('2026-03-31T00:00:00Z'));
    expect(spring.map((d) => d.toISOString())).toEqual([
      '2026-03-28T01:30:00.000Z', // GMT
      '2026-03-29T01:30:00.000Z', // 01:30 does not exist: 02:30 BST
      '2026-03-30T00:30:00.000Z', // BST
    ]);
    const autumn = slotsBetween(daily, London, at('2026-10-24T00:00:00Z'), at('2026-10-27T00:00:00Z'));
    expect(autumn.map((d) => d.toISOString())).toEqual([
      '2026-10-24T00:30:00.000Z', // BST
      '2026-10-25T00:30:00.000Z', // 01:30 happens twice: the first (BST) only
      '2026-10-26T01:30:00.000Z', // GMT
    ]);
    expect(
      slotsBetween(
        { weekdays: [4], localTime: '09:00' },
        London,
        at('2026-03-23T00:00:00Z'),
        at('2026-04-06T00:00:00Z'),
      ).map((d) => DateTime.fromJSDate(d, { zone: London }).weekdayLong),
    ).toEqual(['Thursday', 'Thursday']);
  });
});

// Hundreds of scheduler passes on two instances: a loaded 2-core machine needs more than the default minute.
describe('the scheduler', { timeout: 180_000 }, () => {
  it('two instances over a week that crosses the spring change fire exactly one top-up per slot', async () => {
    clock = at('2026-03-24T23:00:00Z');
    const a = await advertiserWithTimers(12 * PRICE, [
      { weekdays: [1, 2, 3, 4, 5, 6, 7], time: '01:30' },
      { weekdays: [1, 2, 3, 4, 5, 6, 7], time: '02:15' },
    ]);
    await simulate(at('2026-03-25T00:00:00Z'), at('2026-04-01T00:00:00Z'), 15);
    const runs = await runsOf(a.id);
    // 2 timers x 7 days, each local date once per timer.
    expect(runs).toHaveLength(14);
    const perTimer = new Map<number, string[]>();
    for (const r of runs) {
      const day = DateTime.fromJSDate(r.slotAt, { zone: London }).toISODate()!;
      perTimer.set(r.timerId, [...(perTimer.get(r.timerId) ?? []), day]);
    }
    for (const days of perTimer.values())
      expect(days).toEqual([
        '2026-03-25',
        '2026-03-26',
        '2026-03-27',
        '2026-03-28',
        '2026-03-29',
        '2026-03-30',
        '2026-03-31',
      ]);
    // The balance paid 12 of them; the last two failed and nothing went below zero.
    expect(runs.filter((r) => r.status === 'succeeded')).toHaveLength(12);
    expect(runs.slice(-2).map((r) => [r.status, r.reason])).toEqual([
      ['failed', 'insufficient_balance'],
      ['failed', 'insufficient_balance'],
    ]);
    const [paid] = await t.ctx.db
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.userId, a.id), eq(orders.source, 'auto_topup')));
    expect(paid.n).toBe(12);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(0);
    expect(await money.ledgerProblems(t.ctx.db)).toEqual([]);

    // Told twice: two notices, two mails.
    const notices = await t.app.inject({ method: 'GET', url: '/api/notices', ...a.session });
    expect(notices.json().unread).toBe(2);
    expect(notices.json().data[0]).toMatchObject({
      kind: 'auto_topup_failed',
      title: 'Auto-topup failed',
      path: `/edit/load/${a.id}`,
    });
    const queued = await t.ctx.db.select().from(jobs).where(eq(jobs.kind, FAILED_MAIL_JOB));
    expect(queued.filter((j) => j.payload.userId === a.id)).toHaveLength(2);
    expect(await runDueJobs(t.ctx, { [FAILED_MAIL_JOB]: sendFailedMail })).toBeGreaterThanOrEqual(2);
    const outbox = path.join(t.dataDir, 'outbox');
    const mails = fs
      .readdirSync(outbox)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(fs.readFileSync(path.join(outbox, f), 'utf8')));
    expect(mails.filter((m) => m.subject === 'Your auto-topup could not run')).toHaveLength(2);
    const read = await t.app.inject({ method: 'POST', url: '/api/notices/read', ...a.session, payload: { all: true } });
    expect(read.json()).toEqual({ unread: 0 });
  });

  it('two instances across the autumn change: the repeated hour does not double the slot', async () => {
    clock = at('2026-10-24T12:00:00Z');
    const a = await advertiserWithTimers(10 * PRICE, [{ weekdays: [1, 2, 3, 4, 5, 6, 7], time: '01:30' }]);
    await simulate(at('2026-10-24T12:00:00Z'), at('2026-10-26T12:00:00Z'), 30);
    const runs = await runsOf(a.id);
    expect(runs.map((r) => [r.slotAt.toISOString(), r.status])).toEqual([
      ['2026-10-25T00:30:00.000Z', 'succeeded'],
      ['2026-10-26T01:30:00.000Z', 'succeeded'],
    ]);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(8 * PRICE);
  });

  it('a slot found late by less than the grace period runs; an older one is recorded as missed', async () => {
    clock = at('2026-06-01T08:00:00Z');
    const a = await advertiserWithTimers(10 * PRICE, [{ weekdays: [1, 2, 3, 4, 5, 6, 7], time: '10:00' }]);
    clock = at('2026-06-01T09:10:00Z'); // 10:10 BST, 10 minutes late
    await Promise.all([runDueSlots(t.ctx), runDueSlots(ctxB)]);
    clock = at('2026-06-02T09:20:00Z'); // 10:20 BST the next day, 20 minutes late
    await Promise.all([runDueSlots(t.ctx), runDueSlots(ctxB)]);
    // A restart later changes nothing.
    clock = at('2026-06-02T09:30:00Z');
    await runDueSlots(t.ctx);
    expect((await runsOf(a.id)).map((r) => [r.slotAt.toISOString(), r.status, r.reason])).toEqual([
      ['2026-06-01T09:00:00.000Z', 'succeeded', null],
      ['2026-06-02T09:00:00.000Z', 'missed', 'late'],
    ]);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(9 * PRICE);
  });

  it('a weekly budget stops runs beyond it', async () => {
    clock = at('2026-06-07T23:30:00Z'); // Sunday night
    const a = await advertiserWithTimers(10 * PRICE, [
      { weekdays: [1, 2, 3, 4, 5, 6, 7], time: '09:00', weekly_budget: 2 * PRICE },
    ]);
    await simulate(at('2026-06-08T07:00:00Z'), at('2026-06-11T09:00:00Z'), 60);
    expect((await runsOf(a.id)).map((r) => r.status)).toEqual([
      'succeeded',
      'succeeded',
      'skipped_budget',
      'skipped_budget',
    ]);
  });
});

describe('the auto-topup screen calls', () => {
  it('shows timers, runs and the weekly forecast against the balance; only the owner or an admin', async () => {
    clock = at('2026-06-15T06:00:00Z'); // Monday
    const a = await advertiserWithTimers(250, [{ weekdays: [1, 2, 3, 4, 5, 6, 7], time: '09:00' }]);
    const data = await t.app.inject({ method: 'GET', url: `/api/auto-topup/getData/${a.id}`, ...a.session });
    expect(data.json().data).toMatchObject({ timezone: London, city: 'London', price: PRICE, balance: 250 });
    expect(data.json().data.timers[0]).toMatchObject({
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      time: '09:00',
      next_run: '2026-06-15T08:00:00.000Z',
    });
    const cart = (await t.app.inject({ method: 'GET', url: `/api/auto-topup/getCart/${a.id}`, ...a.session })).json()
      .data;
    expect(cart).toMatchObject({
      weekly_cost: 7 * PRICE,
      lasts_the_week: false,
      funded_until: '2026-06-16T08:00:00.000Z',
    });
    expect(cart.slots.map((s: { funded: boolean }) => s.funded)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(cart.slots[0]).toMatchObject({ local: '2026-06-15 09:00', weekday: 1 });

    const stranger = await createSession(t.ctx, (await createAdvertiser(t.ctx)).account.id);
    const timerId = data.json().data.timers[0].id;
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/auto-topup/deleteTimer/${a.id}`,
      ...stranger,
      payload: { timer_id: timerId },
    });
    expect(refused.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/auto-topup/setTimer/${a.id}`,
      ...a.session,
      payload: { weekdays: [8], time: '25:00' },
    });
    expect(bad.statusCode).toBe(422);
    const gone = await t.app.inject({
      method: 'POST',
      url: `/api/auto-topup/deleteTimer/${a.id}`,
      ...a.session,
      payload: { timer_id: timerId },
    });
    expect(gone.json().data.timers).toEqual([]);
  });
});
