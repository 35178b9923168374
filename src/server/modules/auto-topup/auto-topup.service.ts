// Auto-topup (DESIGN.md "Auto-topup"; docs/decisions/0402): timers of weekdays and a local time in the
// profile city's zone, each buying one standard top-up from the balance at its slots. By job:
// - this file: an account's timers and runs (the /edit/auto-topup page);
// - forecast.service.ts: the coming week's slots against the balance;
// - scheduler.service.ts: the periodic task that runs each slot exactly once;
// - admin-review.service.ts: the admin's list of timers and the overview's figures;
// - slots.ts: the calendar rule; auto-topup.repo.ts: the SQL; auto-topup.presenter.ts: the rows sent out.
import { msg } from '#shared/api/messages.ts';
import { AUTO_TOPUP_MAX_TIMERS, type AutoTopupData, type SetTimerBody } from '#shared/schemas/auto-topup.ts';
import type { AppContext } from '../../context';
import { ValidationError } from '../../lib/errors';
import { homeCityOf } from '../listings/listings.service';
import * as money from '../money/money.service';
import { presentRun, presentTimer } from './auto-topup.presenter';
import * as repo from './auto-topup.repo';

export async function getData(ctx: AppContext, userId: number): Promise<AutoTopupData> {
  const [city, timers, runs, products, balance] = await Promise.all([
    homeCityOf(ctx.db, userId),
    repo.timersOf(ctx.db, userId),
    repo.recentRunsOf(ctx.db, userId, 20),
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
    if (!(await repo.updateTimer(ctx.db, userId, body.timer_id, values)))
      throw ValidationError.field('timer_id', msg('autoTopup.timerNotFound'));
  } else {
    if ((await repo.countTimersOf(ctx.db, userId)) >= AUTO_TOPUP_MAX_TIMERS)
      throw ValidationError.field('timer_id', msg('autoTopup.tooManyTimers', { max: AUTO_TOPUP_MAX_TIMERS }));
    await repo.insertTimer(ctx.db, userId, values, ctx.now());
  }
  return getData(ctx, userId);
}

export async function deleteTimer(ctx: AppContext, userId: number, timerId: number): Promise<AutoTopupData> {
  if (!(await repo.deleteTimer(ctx.db, userId, timerId)))
    throw ValidationError.field('timer_id', msg('autoTopup.timerNotFound'));
  return getData(ctx, userId);
}
