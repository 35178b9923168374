// SQL of auto-topup: the timers of an account, the run rows (one per timer and slot, the claim that makes
// a slot run once), and the figures the forecast, the scheduler and the admin screens read.
import { and, asc, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { autoTopupRuns, autoTopupTimers } from '../../db/schema';

type Conn = Db | Tx;
export type TimerRow = typeof autoTopupTimers.$inferSelect;
export type RunRow = typeof autoTopupRuns.$inferSelect;
export type TimerValues = Pick<TimerRow, 'weekdays' | 'localTime' | 'weeklyBudget' | 'enabled' | 'activeFrom'>;
export type RunOutcome = Pick<RunRow, 'status' | 'reason' | 'amount' | 'orderId' | 'ledgerTransactionId'>;

// ---------------------------------------------------------------- timers

export async function timersOf(db: Conn, userId: number): Promise<TimerRow[]> {
  return db.select().from(autoTopupTimers).where(eq(autoTopupTimers.userId, userId)).orderBy(asc(autoTopupTimers.id));
}

export async function enabledTimers(db: Conn): Promise<TimerRow[]> {
  return db.select().from(autoTopupTimers).where(eq(autoTopupTimers.enabled, true)).orderBy(asc(autoTopupTimers.id));
}

export async function countTimersOf(db: Conn, userId: number): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(autoTopupTimers).where(eq(autoTopupTimers.userId, userId));
  return n;
}

export async function insertTimer(db: Conn, userId: number, values: TimerValues, at: Date) {
  await db.insert(autoTopupTimers).values({ userId, ...values, createdAt: at });
}

/** false when the account has no such timer. */
export async function updateTimer(db: Conn, userId: number, timerId: number, values: TimerValues) {
  const changed = await db
    .update(autoTopupTimers)
    .set(values)
    .where(and(eq(autoTopupTimers.id, timerId), eq(autoTopupTimers.userId, userId)))
    .returning({ id: autoTopupTimers.id });
  return changed.length > 0;
}

/** false when the account has no such timer. */
export async function deleteTimer(db: Conn, userId: number, timerId: number) {
  const gone = await db
    .delete(autoTopupTimers)
    .where(and(eq(autoTopupTimers.id, timerId), eq(autoTopupTimers.userId, userId)))
    .returning({ id: autoTopupTimers.id });
  return gone.length > 0;
}

// ---------------------------------------------------------------- runs

export async function recentRunsOf(db: Conn, userId: number, limit: number): Promise<RunRow[]> {
  return db
    .select()
    .from(autoTopupRuns)
    .where(eq(autoTopupRuns.userId, userId))
    .orderBy(desc(autoTopupRuns.slotAt), desc(autoTopupRuns.id))
    .limit(limit);
}

/** What each of these timers spent on succeeded runs since `from`. */
export async function spentSince(db: Conn, timerIds: number[], from: Date): Promise<Map<number, number>> {
  const rows = await db
    .select({ timerId: autoTopupRuns.timerId, amount: sql<number>`sum(${autoTopupRuns.amount})::int` })
    .from(autoTopupRuns)
    .where(
      and(
        inArray(autoTopupRuns.timerId, timerIds),
        eq(autoTopupRuns.status, 'succeeded'),
        gte(autoTopupRuns.slotAt, from),
      ),
    )
    .groupBy(autoTopupRuns.timerId);
  return new Map(rows.map((r) => [r.timerId, Number(r.amount)]));
}

/** What the timer spent on succeeded runs in [week.start, week.end). */
export async function spentInWeek(db: Conn, timerId: number, week: { start: Date; end: Date }): Promise<number> {
  const [{ spent }] = await db
    .select({ spent: sql<number>`coalesce(sum(${autoTopupRuns.amount}), 0)::int` })
    .from(autoTopupRuns)
    .where(
      and(
        eq(autoTopupRuns.timerId, timerId),
        eq(autoTopupRuns.status, 'succeeded'),
        gte(autoTopupRuns.slotAt, week.start),
        lt(autoTopupRuns.slotAt, week.end),
      ),
    );
  return Number(spent);
}

/** The slots of the timer from `from` on that already have a run. */
export async function slotsRunSince(db: Conn, timerId: number, from: Date): Promise<Date[]> {
  const rows = await db
    .select({ slotAt: autoTopupRuns.slotAt })
    .from(autoTopupRuns)
    .where(and(eq(autoTopupRuns.timerId, timerId), gte(autoTopupRuns.slotAt, from)));
  return rows.map((r) => r.slotAt);
}

/**
 * The run row of (timer, slot), inserted unless one exists: its id, or null when another instance has (or
 * had) the slot.
 */
export async function claimRun(
  tx: Tx,
  run: Pick<RunRow, 'timerId' | 'userId' | 'slotAt' | 'status' | 'reason' | 'createdAt'>,
): Promise<number | null> {
  const [claimed] = await tx
    .insert(autoTopupRuns)
    .values(run)
    .onConflictDoNothing()
    .returning({ id: autoTopupRuns.id });
  return claimed?.id ?? null;
}

export async function recordOutcome(tx: Tx, runId: number, outcome: RunOutcome) {
  await tx.update(autoTopupRuns).set(outcome).where(eq(autoTopupRuns.id, runId));
}

// ---------------------------------------------------------------- admin

export async function timersPage(db: Conn, limit: number, offset: number) {
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(autoTopupTimers).orderBy(desc(autoTopupTimers.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(autoTopupTimers),
  ]);
  return { rows, total: n };
}

export async function lastRunOf(db: Conn, timerId: number): Promise<RunRow | null> {
  const [last] = await db
    .select()
    .from(autoTopupRuns)
    .where(eq(autoTopupRuns.timerId, timerId))
    .orderBy(desc(autoTopupRuns.slotAt))
    .limit(1);
  return last ?? null;
}

/** Failed or missed runs of the timer since `since`. */
export async function failuresSince(db: Conn, timerId: number, since: Date): Promise<number> {
  const [{ failures }] = await db
    .select({ failures: count() })
    .from(autoTopupRuns)
    .where(
      and(
        eq(autoTopupRuns.timerId, timerId),
        inArray(autoTopupRuns.status, ['failed', 'missed']),
        gte(autoTopupRuns.slotAt, since),
      ),
    );
  return failures;
}

export async function countEnabledTimers(db: Conn): Promise<number> {
  const [{ active }] = await db
    .select({ active: count() })
    .from(autoTopupTimers)
    .where(eq(autoTopupTimers.enabled, true));
  return Number(active);
}

/** Failed or missed runs per UTC day (YYYY-MM-DD) in [from, until). */
export async function failuresPerDay(db: Conn, from: Date, until: Date): Promise<Map<string, number>> {
  const rows = await db
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
    .groupBy(sql`1`);
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}
