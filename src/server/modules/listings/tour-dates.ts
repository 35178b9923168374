// The tour rule of an additional location (docs/decisions/0403): a tour's dates lie inside the days paid
// for, and its listing ends when the tour does. Dates are days of the location's city (its time zone), so
// "12 March" starts at midnight in Berlin for a Berlin tour, wherever the server or the visitor is.
import { DateTime } from 'luxon';
import { msg } from '#shared/api/messages.ts';
import { ValidationError } from '../../lib/errors';

const DAY_MS = 86_400_000;

export interface TourDates {
  from: string | null;
  until: string | null;
}

/** The city's day (YYYY-MM-DD) at `at`. */
export const dayIn = (at: Date, timezone: string) => DateTime.fromJSDate(at, { zone: timezone }).toISODate()!;

/** Midnight at the start of `day` in the city. */
const startOfDay = (day: string, timezone: string) => DateTime.fromISO(day, { zone: timezone }).startOf('day');

/** The last day of the paid period that ends at `paidUntil` (its end is exclusive). */
export const lastPaidDay = (paidUntil: Date, timezone: string) => dayIn(new Date(paidUntil.getTime() - 1), timezone);

/**
 * Why the dates do not fit a paid period that ends at `paidUntil`, seen at `now` (null: they fit): the tour
 * ends after it starts, not before today, and neither date lies after the last paid day. A tour that has
 * begun may keep its past first day (a running tour's dates are edited, or renewed).
 */
export function tourDatesProblem(
  dates: TourDates,
  input: { now: Date; paidUntil: Date; timezone: string },
): { field: 'from' | 'until'; message: ReturnType<typeof msg> } | null {
  const { from, until } = dates;
  const today = dayIn(input.now, input.timezone);
  const last = lastPaidDay(input.paidUntil, input.timezone);
  if (from && until && until < from) return { field: 'until', message: msg('money.tourOrder') };
  if ((until && until < today) || (!until && from && from < today))
    return { field: until ? 'until' : 'from', message: msg('money.tourPast') };
  if (from && from > last) return { field: 'from', message: msg('edit.tourAfterEnd', { date: last }) };
  if (until && until > last) return { field: 'until', message: msg('edit.tourAfterEnd', { date: last }) };
  return null;
}

/** tourDatesProblem as the spec's 422 (nothing written). */
export function assertTourDates(dates: TourDates, input: { now: Date; paidUntil: Date; timezone: string }) {
  const problem = tourDatesProblem(dates, input);
  if (problem) throw ValidationError.field(problem.field, problem.message);
}

/**
 * The moments a listing's dates give: when the tour starts (null: undated, or no first day) and when the
 * listing stops being shown: the end of the tour's last day, or of the paid days when that comes first.
 */
export function tourMoments(
  dates: TourDates,
  input: { paidUntil: Date; timezone: string },
): { tourStartsAt: Date | null; expiresAt: Date } {
  const tourStartsAt = dates.from ? startOfDay(dates.from, input.timezone).toJSDate() : null;
  const tourEnds = dates.until ? startOfDay(dates.until, input.timezone).plus({ days: 1 }).toJSDate() : null;
  const expiresAt = tourEnds && tourEnds < input.paidUntil ? tourEnds : input.paidUntil;
  return { tourStartsAt, expiresAt };
}

/** The end of the paid days after buying `days` more at `now`: from the current end while it runs. */
export const paidUntilAfter = (current: Date | null, days: number, now: Date) =>
  new Date(Math.max(current?.getTime() ?? 0, now.getTime()) + days * DAY_MS);

/**
 * Days left of a listing that ends at `expiresAt`, seen at `now` (issue 23 item 4), counting the day it is
 * seen: 30 right after buying 30 days, 1 on its last day, 0 once it has ended.
 * - An end at midnight in the city (a tour's, after its last day): the city's calendar days from today
 *   through the last day, so a tour of 27-30 November bought on the 27th has 4 (whatever the hour, and
 *   across a change of summer time).
 * - An end at a time of day (the paid days, counted from the moment of payment): the 24-hour days left,
 *   rounded up, so the 30 days bought say 30 until a whole day of them has passed.
 */
export function daysLeft(expiresAt: Date, now: Date, timezone: string): number {
  if (expiresAt.getTime() <= now.getTime()) return 0;
  const end = DateTime.fromJSDate(expiresAt, { zone: timezone });
  if (end.equals(end.startOf('day'))) {
    const today = DateTime.fromJSDate(now, { zone: timezone }).startOf('day');
    return Math.round(end.diff(today, 'days').days);
  }
  return Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS);
}
