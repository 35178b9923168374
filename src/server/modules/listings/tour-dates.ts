// The tour rule of an additional location (docs/decisions/0403): a tour's dates lie inside the days paid
// for, and its listing ends when the tour does. Dates are days of the location's city (its time zone), so
// "12 March" starts at midnight in Berlin for a Berlin tour, wherever the server or the visitor is.
import { DateTime } from 'luxon';
import { msg } from '#shared/api/messages.ts';
import { ValidationError } from '../../lib/errors';

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
  new Date(Math.max(current?.getTime() ?? 0, now.getTime()) + days * 86_400_000);
