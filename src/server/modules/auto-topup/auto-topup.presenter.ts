// Timers and runs as the API sends them (#shared/schemas/auto-topup.ts).
import type { Run, Timer } from '#shared/schemas/auto-topup.ts';
import type { RunRow, TimerRow } from './auto-topup.repo';
import { nextSlot } from './slots';

export function presentTimer(t: TimerRow, zone: string | null, now: Date): Timer {
  const next = t.enabled && zone ? nextSlot(t, zone, now) : null;
  return {
    id: t.id,
    weekdays: [...t.weekdays].sort((a, b) => a - b),
    time: t.localTime,
    weekly_budget: t.weeklyBudget,
    enabled: t.enabled,
    next_run: next?.toISOString() ?? null,
  };
}

export function presentRun(r: RunRow): Run {
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
