// Auto-topup (DESIGN.md "Auto-topup"; docs/decisions/0402): timers of weekdays and a local time in the
// profile city's zone. At each slot one standard top-up is bought from the balance, exactly once per slot
// however many instances run the scheduler and across restarts: the run row, unique per (timer, slot), is
// claimed in the same transaction as the purchase, so a slot is either fully done or not at all. A slot
// found late by less than AUTO_TOPUP_GRACE_MINUTES still runs; an older one is recorded as missed.
import { and, asc, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { msg } from '#shared/api/messages.ts';
import {
  ADMIN_AUTO_TOPUP_PAGE_SIZE,
  AUTO_TOPUP_MAX_TIMERS,
  type AdminAutoTopupPage,
  type AutoTopupData,
  type AutoTopupForecast,
  type Run,
  type SetTimerBody,
  type Timer,
} from '#shared/schemas/auto-topup.ts';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { autoTopupRuns, autoTopupTimers } from '../../db/schema';
import { ValidationError } from '../../lib/errors';
import { enqueue } from '../../lib/jobs';
import { homeCityOf, positionOf, screenNamesOf } from '../listings/listings.service';
import * as money from '../money/money.service';
import { addNotice } from '../notices/notices.service';
import { localLabel, nextSlot, slotsBetween, weekOf } from './slots';

type TimerRow = typeof autoTopupTimers.$inferSelect;
type RunRow = typeof autoTopupRuns.$inferSelect;

export const FAILED_MAIL_JOB = 'auto-topup.failed-mail';
/** How far back a tick looks for slots not yet handled (a server down for longer records them missed). */
const LOOKBACK_MS = 8 * 86_400_000;

const rule = (t: TimerRow) => ({ weekdays: t.weekdays, localTime: t.localTime });

function presentTimer(t: TimerRow, zone: string | null, now: Date): Timer {
  const next = t.enabled && zone ? nextSlot(rule(t), zone, now) : null;
  return {
    id: t.id,
    weekdays: [...t.weekdays].sort((a, b) => a - b),
    time: t.localTime,
    weekly_budget: t.weeklyBudget,
    enabled: t.enabled,
    next_run: next?.toISOString() ?? null,
  };
}

function presentRun(r: RunRow): Run {
  return {
    id: r.id,
    timer_id: r.timerId,
    slot_at: r.slotAt.toISOString(),
    status: r.status,
    amount: r.amount,
    reason: r.reason,
    created_at: r.createdAt.toISOString(),
  };
}

async function timersOf(ctx: AppContext, userId: number) {
  return ctx.db
    .select()
    .from(autoTopupTimers)
    .where(eq(autoTopupTimers.userId, userId))
    .orderBy(asc(autoTopupTimers.id));
}

export async function getData(ctx: AppContext, userId: number): Promise<AutoTopupData> {
  const [city, timers, runs, products, balance] = await Promise.all([
    homeCityOf(ctx.db, userId),
    timersOf(ctx, userId),
    ctx.db
      .select()
      .from(autoTopupRuns)
      .where(eq(autoTopupRuns.userId, userId))
      .orderBy(desc(autoTopupRuns.slotAt), desc(autoTopupRuns.id))
      .limit(20),
    money.listProducts(ctx),
    money.balanceOf(ctx, userId),
  ]);
  const now = ctx.now();
  return {
    user_id: userId,
    timezone: city?.timezone ?? null,
    city: city?.name ?? null,
    price: products.find((p) => p.code === 'standard_topup')!.price,
    currency: ctx.env.SITE_CURRENCY,
    balance,
    timers: timers.map((t) => presentTimer(t, city?.timezone ?? null, now)),
    runs: runs.map(presentRun),
  };
}

export async function setTimer(ctx: AppContext, userId: number, body: SetTimerBody): Promise<AutoTopupData> {
  if (!(await homeCityOf(ctx.db, userId))) throw ValidationError.field('time', msg('autoTopup.noCity'));
  // A changed timer starts afresh: slots before now are not its own (no "missed" for a time just set).
  const values = {
    weekdays: body.weekdays,
    localTime: body.time,
    weeklyBudget: body.weekly_budget ?? null,
    enabled: body.enabled ?? true,
    activeFrom: ctx.now(),
  };
  if (body.timer_id) {
    const changed = await ctx.db
      .update(autoTopupTimers)
      .set(values)
      .where(and(eq(autoTopupTimers.id, body.timer_id), eq(autoTopupTimers.userId, userId)))
      .returning({ id: autoTopupTimers.id });
    if (!changed.length) throw ValidationError.field('timer_id', msg('autoTopup.timerNotFound'));
  } else {
    const [{ n }] = await ctx.db.select({ n: count() }).from(autoTopupTimers).where(eq(autoTopupTimers.userId, userId));
    if (n >= AUTO_TOPUP_MAX_TIMERS)
      throw ValidationError.field('timer_id', msg('autoTopup.tooManyTimers', { max: AUTO_TOPUP_MAX_TIMERS }));
    await ctx.db.insert(autoTopupTimers).values({ userId, ...values, createdAt: ctx.now() });
  }
  return getData(ctx, userId);
}

export async function deleteTimer(ctx: AppContext, userId: number, timerId: number): Promise<AutoTopupData> {
  const gone = await ctx.db
    .delete(autoTopupTimers)
    .where(and(eq(autoTopupTimers.id, timerId), eq(autoTopupTimers.userId, userId)))
    .returning({ id: autoTopupTimers.id });
  if (!gone.length) throw ValidationError.field('timer_id', msg('autoTopup.timerNotFound'));
  return getData(ctx, userId);
}

/** The coming 7 days of slots against today's balance ("your balance lasts until Thursday"). */
export async function forecast(ctx: AppContext, userId: number): Promise<AutoTopupForecast> {
  const data = await getData(ctx, userId);
  const zone = data.timezone;
  const now = ctx.now();
  const until = new Date(now.getTime() + 7 * 86_400_000);
  const timers = (await timersOf(ctx, userId)).filter((t) => t.enabled);
  const slots = zone
    ? timers
        .flatMap((t) => slotsBetween(rule(t), zone, now, until).map((at) => ({ timer: t, at })))
        .sort((a, b) => a.at.getTime() - b.at.getTime() || a.timer.id - b.timer.id)
    : [];
  // What each timer already spent this week counts against its budget.
  const spent = new Map<number, number>();
  if (zone && timers.length) {
    const week = weekOf(now, zone);
    const rows = await ctx.db
      .select({ timerId: autoTopupRuns.timerId, amount: sql<number>`sum(${autoTopupRuns.amount})::int` })
      .from(autoTopupRuns)
      .where(
        and(
          inArray(
            autoTopupRuns.timerId,
            timers.map((t) => t.id),
          ),
          eq(autoTopupRuns.status, 'succeeded'),
          gte(autoTopupRuns.slotAt, week.start),
        ),
      )
      .groupBy(autoTopupRuns.timerId);
    for (const r of rows) spent.set(r.timerId, Number(r.amount));
  }
  let balance = data.balance;
  let fundedUntil: string | null = null;
  let lasts = true;
  let weekly = 0;
  const weekStarts = new Map<number, number>();
  const out = slots.map(({ timer, at }) => {
    // A new local week resets each budget.
    const week = weekOf(at, zone!).start.getTime();
    if (weekStarts.get(timer.id) !== week) {
      if (weekStarts.has(timer.id)) spent.set(timer.id, 0);
      weekStarts.set(timer.id, week);
    }
    const used = spent.get(timer.id) ?? 0;
    const overBudget = timer.weeklyBudget !== null && used + data.price > timer.weeklyBudget;
    const cost = overBudget ? 0 : data.price;
    const funded = overBudget || (lasts && balance >= cost);
    if (!overBudget) {
      weekly += cost;
      spent.set(timer.id, used + cost);
      if (funded) {
        balance -= cost;
        fundedUntil = at.toISOString();
      } else lasts = false;
    }
    return {
      timer_id: timer.id,
      at: at.toISOString(),
      ...localLabel(at, zone!),
      cost,
      over_budget: overBudget,
      funded,
      balance_after: balance,
    };
  });
  return {
    currency: data.currency,
    balance: data.balance,
    price: data.price,
    weekly_cost: weekly,
    slots: out,
    funded_until: lasts ? null : fundedUntil,
    lasts_the_week: lasts,
  };
}

// ---------------------------------------------------------------- the scheduler

type RunOutcome = Pick<RunRow, 'status' | 'reason' | 'amount' | 'orderId' | 'ledgerTransactionId'>;

/** One slot, exactly once: claim its run row, then buy, in one transaction. */
async function runSlot(ctx: AppContext, timer: TimerRow, slot: Date, late: boolean) {
  return ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(autoTopupRuns)
      .values({
        timerId: timer.id,
        userId: timer.userId,
        slotAt: slot,
        status: late ? 'missed' : 'failed',
        reason: late ? 'late' : null,
        createdAt: ctx.now(),
      })
      .onConflictDoNothing()
      .returning({ id: autoTopupRuns.id });
    // Another instance has (or had) this slot.
    if (!claimed || late) return claimed ? 'missed' : 'taken';
    const outcome = await buy(ctx, tx, timer, slot);
    await tx.update(autoTopupRuns).set(outcome).where(eq(autoTopupRuns.id, claimed.id));
    if (outcome.status === 'failed' && outcome.reason === 'insufficient_balance') {
      const { local } = localLabel(slot, (await homeCityOf(tx, timer.userId))?.timezone ?? 'UTC');
      await addNotice(tx, {
        userId: timer.userId,
        kind: 'auto_topup_failed',
        title: 'autoTopup.failedTitle',
        message: 'autoTopup.failedMessage',
        params: { slot: local },
        path: `/edit/load/${timer.userId}`,
        at: ctx.now(),
      });
      await enqueue(tx, FAILED_MAIL_JOB, { runId: claimed.id, userId: timer.userId, slot: local }, ctx.now());
    }
    return outcome.status;
  });
}

async function buy(ctx: AppContext, tx: Tx, timer: TimerRow, slot: Date): Promise<RunOutcome> {
  const none = { amount: 0, orderId: null, ledgerTransactionId: null };
  if (timer.weeklyBudget !== null) {
    const week = weekOf(slot, (await homeCityOf(tx, timer.userId))?.timezone ?? 'UTC');
    const [{ spent }] = await tx
      .select({ spent: sql<number>`coalesce(sum(${autoTopupRuns.amount}), 0)::int` })
      .from(autoTopupRuns)
      .where(
        and(
          eq(autoTopupRuns.timerId, timer.id),
          eq(autoTopupRuns.status, 'succeeded'),
          gte(autoTopupRuns.slotAt, week.start),
          lt(autoTopupRuns.slotAt, week.end),
        ),
      );
    const price = (await money.listProducts(ctx, tx)).find((p) => p.code === 'standard_topup')!.price;
    if (Number(spent) + price > timer.weeklyBudget) return { status: 'skipped_budget', reason: 'budget', ...none };
  }
  if ((await positionOf(tx, timer.userId, ctx.now())) === null)
    return { status: 'failed', reason: 'not_listed', ...none };
  try {
    const bought = await money.purchase(
      ctx,
      {
        userId: timer.userId,
        productCode: 'standard_topup',
        idempotencyKey: `auto_topup:${timer.id}:${slot.toISOString()}`,
        source: 'auto_topup',
      },
      tx,
    );
    return {
      status: 'succeeded',
      reason: null,
      amount: bought.amount,
      orderId: bought.orderId,
      ledgerTransactionId: bought.transactionId,
    };
  } catch (err) {
    if (err instanceof money.InsufficientBalance) return { status: 'failed', reason: 'insufficient_balance', ...none };
    throw err;
  }
}

/**
 * Periodic task (every minute, every instance): each enabled timer's slots since it was set (at most 8
 * days back) that have no run yet are run, or recorded missed when older than the grace period.
 */
export async function runDueSlots(ctx: AppContext): Promise<Record<string, number>> {
  const now = ctx.now();
  const graceMs = ctx.env.AUTO_TOPUP_GRACE_MINUTES * 60_000;
  const counts: Record<string, number> = {};
  const timers = await ctx.db
    .select()
    .from(autoTopupTimers)
    .where(eq(autoTopupTimers.enabled, true))
    .orderBy(asc(autoTopupTimers.id));
  const zones = new Map<number, string | null>();
  for (const timer of timers) {
    if (!zones.has(timer.userId)) zones.set(timer.userId, (await homeCityOf(ctx.db, timer.userId))?.timezone ?? null);
    const zone = zones.get(timer.userId);
    if (!zone) continue;
    const from = new Date(Math.max(timer.activeFrom.getTime(), now.getTime() - LOOKBACK_MS));
    const slots = slotsBetween(rule(timer), zone, from, now);
    if (!slots.length) continue;
    const done = await ctx.db
      .select({ slotAt: autoTopupRuns.slotAt })
      .from(autoTopupRuns)
      .where(and(eq(autoTopupRuns.timerId, timer.id), gte(autoTopupRuns.slotAt, slots[0])));
    const seen = new Set(done.map((r) => r.slotAt.getTime()));
    for (const slot of slots) {
      if (seen.has(slot.getTime())) continue;
      const outcome = await runSlot(ctx, timer, slot, now.getTime() - slot.getTime() > graceMs);
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
  }
  return counts;
}

// ---------------------------------------------------------------- admin

export async function adminList(ctx: AppContext, page: number): Promise<AdminAutoTopupPage> {
  const offset = (page - 1) * ADMIN_AUTO_TOPUP_PAGE_SIZE;
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(autoTopupTimers)
      .orderBy(desc(autoTopupTimers.id))
      .limit(ADMIN_AUTO_TOPUP_PAGE_SIZE)
      .offset(offset),
    ctx.db.select({ n: count() }).from(autoTopupTimers),
  ]);
  const now = ctx.now();
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const names = await screenNamesOf(
    ctx.db,
    rows.map((t) => t.userId),
  );
  const data = await Promise.all(
    rows.map(async (t) => {
      const [city, [last], [{ failures }]] = await Promise.all([
        homeCityOf(ctx.db, t.userId),
        ctx.db
          .select()
          .from(autoTopupRuns)
          .where(eq(autoTopupRuns.timerId, t.id))
          .orderBy(desc(autoTopupRuns.slotAt))
          .limit(1),
        ctx.db
          .select({ failures: count() })
          .from(autoTopupRuns)
          .where(
            and(
              eq(autoTopupRuns.timerId, t.id),
              inArray(autoTopupRuns.status, ['failed', 'missed']),
              gte(autoTopupRuns.slotAt, since),
            ),
          ),
      ]);
      return {
        ...presentTimer(t, city?.timezone ?? null, now),
        user_id: t.userId,
        screen_name: names.get(t.userId) ?? null,
        timezone: city?.timezone ?? null,
        last_run: last ? presentRun(last) : null,
        failures,
      };
    }),
  );
  return { data, page, has_more: offset + rows.length < n, total: n };
}

/** Admin overview: timers switched on now, and failed or missed runs per UTC day from `from`. */
export async function adminStats(ctx: AppContext, from: Date, days: number) {
  const until = new Date(from.getTime() + days * 86_400_000);
  const [[{ active }], rows] = await Promise.all([
    ctx.db.select({ active: count() }).from(autoTopupTimers).where(eq(autoTopupTimers.enabled, true)),
    ctx.db
      .select({
        day: sql<string>`to_char(${autoTopupRuns.slotAt} at time zone 'UTC', 'YYYY-MM-DD')`,
        n: count(),
      })
      .from(autoTopupRuns)
      .where(
        and(
          inArray(autoTopupRuns.status, ['failed', 'missed']),
          gte(autoTopupRuns.slotAt, from),
          lt(autoTopupRuns.slotAt, until),
        ),
      )
      .groupBy(sql`1`),
  ]);
  const byDay = new Map(rows.map((r) => [r.day, Number(r.n)]));
  const failed = Array.from(
    { length: days },
    (_, i) => byDay.get(new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10)) ?? 0,
  );
  return { activeTimers: Number(active), failedRuns: failed };
}
