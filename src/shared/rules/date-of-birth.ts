// Registration proves 18+ (DESIGN.md "Accounts and roles"). The browser checks with its clock, the
// server decides with its own; both use these.
import { MIN_AGE } from '../constants.ts';

/** A real calendar day written YYYY-MM-DD, from 1900 on. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < '1900-01-01') return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Whole years between a YYYY-MM-DD birth date and `today` (UTC). */
export function ageOn(dateOfBirth: string, today: Date): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number);
  const ty = today.getUTCFullYear();
  const tm = today.getUTCMonth() + 1;
  const td = today.getUTCDate();
  return ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
}

export const isAdultOn = (dateOfBirth: string, today: Date) =>
  isCalendarDate(dateOfBirth) && ageOn(dateOfBirth, today) >= MIN_AGE;
