// The auto-topup scheduler (docs/decisions/0402). At each slot one standard top-up is bought from the
// balance, exactly once per slot however many instances run the scheduler and across restarts: the run
// row, unique per (timer, slot), is claimed in the same transaction as the purchase, so a slot is either
// fully done or not at all. A slot found late by less than AUTO_TOPUP_GRACE_MINUTES still runs; an older
// one is recorded as missed. A run refused for want of balance leaves a notice and a mail
// (auto-topup.mail.ts, a job queued in the same transaction).
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { enqueue } from '../../lib/jobs';
import { homeCityOf, positionOf } from '../listings/listings.service';
import * as money from '../money/money.service';
import { addNotice } from '../notices/notices.service';
import * as repo from './auto-topup.repo';
import type { RunOutcome, TimerRow } from './auto-topup.repo';
import { localLabel, slotsBetween, weekOf } from './slots';
import { metricsOf } from '../../lib/metrics';

export const FAILED_MAIL_JOB = 'auto-topup.failed-mail';
/** How far back a tick looks for slots not yet handled (a server down for longer records them missed). */
const LOOKBACK_MS = 8 * 86_400_000;

/**
 * Periodic task (every minute, every instance): each enabled timer's slots since it was set (at most 8
 * days back) that have no run yet are run, or recorded missed when older than the grace period.
 */
export async function runDueSlots(ctx: AppContext): Promise<Record<string, number>> {
  const now = ctx.now();
  const graceMs = ctx.env.AUTO_TOPUP_GRACE_MINUTES * 60_000;
  const counts: Record<string, number> = {};
  const timers = await repo.enabledTimers(ctx.db);
  const zones = new Map<number, string | null>();
  for (const timer of timers) {
    if (!zones.has(timer.userId)) zones.set(timer.userId, (await homeCityOf(ctx.db, timer.userId))?.timezone ?? null);
    const zone = zones.get(timer.userId);
    if (!zone) continue;
    const from = new Date(Math.max(timer.activeFrom.getTime(), now.getTime() - LOOKBACK_MS));
    const slots = slotsBetween(timer, zone, from, now);
    if (!slots.length) continue;
    const seen = new Set((await repo.slotsRunSince(ctx.db, timer.id, slots[0])).map((at) => at.getTime()));
    for (const slot of slots) {
      if (seen.has(slot.getTime())) continue;
      const outcome = await runSlot(ctx, timer, slot, now.getTime() - slot.getTime() > graceMs);
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      metricsOf(ctx).autoTopups.inc({ outcome });
    }
  }
  return counts;
}

/** One slot, exactly once: claim its run row, then buy, in one transaction. */
async function runSlot(ctx: AppContext, timer: TimerRow, slot: Date, late: boolean) {
  return ctx.db.transaction(async (tx) => {
    const claimed = await repo.claimRun(tx, {
      timerId: timer.id,
      userId: timer.userId,
      slotAt: slot,
      status: late ? 'missed' : 'failed',
      reason: late ? 'late' : null,
      createdAt: ctx.now(),
    });
    // Another instance has (or had) this slot.
    if (claimed === null || late) return claimed !== null ? 'missed' : 'taken';
    const outcome = await buy(ctx, tx, timer, slot);
    await repo.recordOutcome(tx, claimed, outcome);
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
      await enqueue(tx, FAILED_MAIL_JOB, { runId: claimed, userId: timer.userId, slot: local }, ctx.now());
    }
    return outcome.status;
  });
}

async function buy(ctx: AppContext, tx: Tx, timer: TimerRow, slot: Date): Promise<RunOutcome> {
  const none = { amount: 0, orderId: null, ledgerTransactionId: null };
  if (timer.weeklyBudget !== null) {
    const week = weekOf(slot, (await homeCityOf(tx, timer.userId))?.timezone ?? 'UTC');
    const spent = await repo.spentInWeek(tx, timer.id, week);
    const price = (await money.listProducts(ctx, tx)).find((p) => p.code === 'standard_topup')!.price;
    if (spent + price > timer.weeklyBudget) return { status: 'skipped_budget', reason: 'budget', ...none };
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
    // A held account's auto-topup pauses (decision 0423): the run is recorded, no failure mail (she was told).
    if (err instanceof money.AccountHeld) return { status: 'failed', reason: 'account_held', ...none };
    if (err instanceof money.InsufficientBalance) return { status: 'failed', reason: 'insufficient_balance', ...none };
    throw err;
  }
}
