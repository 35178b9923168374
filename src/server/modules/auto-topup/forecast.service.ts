// The auto-topup forecast: the coming 7 days of slots against today's balance ("your balance lasts until
// Thursday"), each timer's weekly budget counted as the scheduler counts it.
import type { AutoTopupForecast } from '#shared/schemas/auto-topup.ts';
import type { AppContext } from '../../context';
import { getData } from './auto-topup.service';
import * as repo from './auto-topup.repo';
import { localLabel, slotsBetween, weekOf } from './slots';

export async function forecast(ctx: AppContext, userId: number): Promise<AutoTopupForecast> {
  const data = await getData(ctx, userId);
  const zone = data.timezone;
  const now = ctx.now();
  const until = new Date(now.getTime() + 7 * 86_400_000);
  const timers = (await repo.timersOf(ctx.db, userId)).filter((t) => t.enabled);
  const slots = zone
    ? timers
        .flatMap((t) => slotsBetween(t, zone, now, until).map((at) => ({ timer: t, at })))
        .sort((a, b) => a.at.getTime() - b.at.getTime() || a.timer.id - b.timer.id)
    : [];
  // What each timer already spent this week counts against its budget.
  const spent =
    zone && timers.length
      ? await repo.spentSince(
          ctx.db,
          timers.map((t) => t.id),
          weekOf(now, zone).start,
        )
      : new Map<number, number>();
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
