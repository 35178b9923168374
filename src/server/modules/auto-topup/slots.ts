// Auto-topup slots (docs/decisions/0402): a timer's slots are, for each local date whose ISO weekday it
// names, the instant that date's HH:MM has in the zone. One instant per local date, always the same one,
// so it can be the unique key of a run:
// - a time that does not exist (spring forward, 02:30 on the night the clocks skip 02:00-03:00) is moved
//   forward by the gap (03:30), as Luxon resolves it; the slot is late, never skipped;
// - a time that happens twice (fall back) is its first occurrence; the second is not another slot.
import { DateTime } from 'luxon';

export interface TimerRule {
  /** ISO weekdays, 1 = Monday. */
  weekdays: number[];
  /** HH:MM, local. */
  localTime: string;
}

/** The slot of one local date (YYYY-MM-DD) in `zone`. */
export function slotOf(rule: TimerRule, zone: string, localDate: DateTime): Date {
  const [hour, minute] = rule.localTime.split(':').map(Number);
  const local = DateTime.fromObject(
    { year: localDate.year, month: localDate.month, day: localDate.day, hour, minute },
    { zone },
  );
  // An ambiguous time has two possible offsets: take the earlier instant. An impossible one has been moved
  // forward by Luxon already.
  const instants = local.getPossibleOffsets().map((d) => d.toMillis());
  return new Date(Math.min(local.toMillis(), ...instants));
}

/** Slots in (from, to], oldest first. */
export function slotsBetween(rule: TimerRule, zone: string, from: Date, to: Date): Date[] {
  const days = new Set(rule.weekdays);
  const out: Date[] = [];
  // A slot can sit up to a day away from its date's midnight in UTC terms: look one day wider each side.
  let day = DateTime.fromJSDate(from, { zone }).startOf('day').minus({ days: 1 });
  const last = DateTime.fromJSDate(to, { zone }).startOf('day').plus({ days: 1 });
  while (day <= last) {
    if (days.has(day.weekday)) {
      const slot = slotOf(rule, zone, day);
      if (slot > from && slot <= to) out.push(slot);
    }
    day = day.plus({ days: 1 });
  }
  return out;
}

/** The next slot after `after`, or null when the rule has no weekday. */
export function nextSlot(rule: TimerRule, zone: string, after: Date): Date | null {
  if (!rule.weekdays.length) return null;
  return slotsBetween(rule, zone, after, new Date(after.getTime() + 8 * 86_400_000))[0] ?? null;
}

/** Monday 00:00 local of the slot's week, and the next Monday: the budget's week. */
export function weekOf(slot: Date, zone: string): { start: Date; end: Date } {
  const start = DateTime.fromJSDate(slot, { zone }).startOf('week');
  return { start: start.toJSDate(), end: start.plus({ weeks: 1 }).toJSDate() };
}

export function localLabel(slot: Date, zone: string) {
  const d = DateTime.fromJSDate(slot, { zone });
  return { local: d.toFormat('yyyy-MM-dd HH:mm'), weekday: d.weekday };
}
