// SQL of the admin module: who the people are (accounts with their profile, read-only), the flag and
// ad-status switches, the report queue, the audit log, duplicate matches and the overview's counts.
// Media, verification requests, money and timers are read and written through their services.
import { and, asc, count, desc, eq, gte, inArray, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client';
import {
  accounts,
  auditLog,
  cities,
  duplicateMatches,
  feedback,
  metricSnapshots,
  profiles,
  settings,
} from '../../db/schema';
import { foldText, isListed } from '../profiles/profile-derive';

type Conn = Db | Tx;

// ---------------------------------------------------------------- people

const personColumns = {
  id: accounts.id,
  username: accounts.username,
  email: accounts.email,
  mobile: accounts.mobile,
  role: accounts.role,
  status: accounts.status,
  createdAt: accounts.createdAt,
  lastSeenAt: accounts.lastSeenAt,
  screenName: profiles.screenName,
  phone: profiles.phone,
  flagged: profiles.flagged,
  listed: profiles.listed,
  complete: profiles.complete,
  adStatus: profiles.adStatus,
  verificationStatus: profiles.verificationStatus,
  verifiedAt: profiles.verifiedAt,
  city: cities.name,
};

export type PersonRow = {
  id: number;
  username: string;
  email: string;
  mobile: string | null;
  role: 'advertiser' | 'admin';
  status: 'active' | 'suspended' | 'deleted';
  createdAt: Date;
  lastSeenAt: Date | null;
  screenName: string | null;
  phone: string | null;
  flagged: boolean | null;
  listed: boolean | null;
  complete: boolean | null;
  adStatus: 'visible' | 'hidden' | null;
  verificationStatus: 'none' | 'pending' | 'verified' | 'declined' | null;
  verifiedAt: Date | null;
  city: string | null;
};

const people = (db: Conn) =>
  db
    .select(personColumns)
    .from(accounts)
    .leftJoin(profiles, eq(profiles.userId, accounts.id))
    .leftJoin(cities, eq(cities.id, profiles.cityId));

export async function peopleByIds(db: Conn, ids: number[]): Promise<Map<number, PersonRow>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await people(db).where(inArray(accounts.id, unique));
  return new Map(rows.map((r) => [r.id, r]));
}

export async function personById(db: Conn, id: number): Promise<PersonRow | null> {
  const [row] = await people(db).where(eq(accounts.id, id));
  return row ?? null;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Admin search: any part of the screen name or city (the folded search text), email or login, a phone
 * typed with or without spaces, or an id. No minimum length; an empty query lists everyone, newest first.
 * Exact hits (id, login, email, screen name) come first.
 */
export async function searchPeople(db: Conn, q: string, limit: number, offset: number): Promise<PersonRow[]> {
  const query = q.trim();
  const lower = query.toLowerCase();
  const conditions: SQL[] = [];
  if (query) {
    const pattern = `%${likeEscape(lower)}%`;
    conditions.push(
      sql`lower(${accounts.email}) like ${pattern}`,
      sql`lower(${accounts.username}) like ${pattern}`,
      sql`${profiles.searchText} like ${`%${likeEscape(foldText(query))}%`}`,
    );
    const digits = query.replace(/[\s()-]/g, '');
    if (/^\+?\d+$/.test(digits)) {
      conditions.push(sql`replace(${profiles.phone}, ' ', '') like ${`%${likeEscape(digits)}%`}`);
      const n = Number(digits.replace('+', ''));
      if (!digits.startsWith('+') && n > 0 && n < 2 ** 31) conditions.push(eq(accounts.id, n));
    }
  }
  const exact = query
    ? sql`(${accounts.id}::text = ${query} or lower(${accounts.username}) = ${lower} or lower(${accounts.email}) = ${lower} or lower(${profiles.screenName}) = ${lower})`
    : null;
  return people(db)
    .where(conditions.length ? or(...conditions) : undefined)
    .orderBy(...(exact ? [desc(exact)] : []), desc(accounts.id))
    .limit(limit)
    .offset(offset);
}

// ---------------------------------------------------------------- flag and ad status

export interface ProfileSwitches {
  flagged: boolean;
  adStatus: 'visible' | 'hidden';
  listed: boolean;
}

/** Locks the profile row; null when the account has no profile. */
export async function lockSwitches(tx: Tx, userId: number) {
  const [row] = await tx
    .select({
      flagged: profiles.flagged,
      adStatus: profiles.adStatus,
      listed: profiles.listed,
      complete: profiles.complete,
      accountStatus: accounts.status,
    })
    .from(profiles)
    .innerJoin(accounts, eq(accounts.id, profiles.userId))
    .where(eq(profiles.userId, userId))
    .for('update');
  return row ?? null;
}

/**
 * Sets the flag and/or ad status and re-derives `listed` (the one column the directory, search, sitemap
 * and server-rendered pages filter on), so a flagged profile is gone from all of them at once.
 */
export async function setSwitches(
  tx: Tx,
  userId: number,
  change: { flagged?: boolean; adStatus?: 'visible' | 'hidden' },
  now: Date,
): Promise<{ before: ProfileSwitches; after: ProfileSwitches } | null> {
  const row = await lockSwitches(tx, userId);
  if (!row) return null;
  const flagged = change.flagged ?? row.flagged;
  const adStatus = change.adStatus ?? row.adStatus;
  const listed = isListed({ complete: row.complete, adStatus, flagged, accountStatus: row.accountStatus });
  await tx.update(profiles).set({ flagged, adStatus, listed, updatedAt: now }).where(eq(profiles.userId, userId));
  return {
    before: { flagged: row.flagged, adStatus: row.adStatus, listed: row.listed },
    after: { flagged, adStatus, listed },
  };
}

// ---------------------------------------------------------------- reports

export type ReportRow = typeof feedback.$inferSelect;

/** Open: safeguarding reasons (higher priority) first, then the oldest. Resolved: the latest first. */
export async function reports(db: Conn, status: 'open' | 'resolved', limit: number, offset: number) {
  const order =
    status === 'open'
      ? [desc(feedback.priority), asc(feedback.createdAt), asc(feedback.id)]
      : [desc(feedback.resolvedAt), desc(feedback.id)];
  return db
    .select()
    .from(feedback)
    .where(eq(feedback.status, status))
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
}

export async function countReports(db: Conn, status: 'open' | 'resolved'): Promise<number> {
  const [row] = await db.select({ n: count() }).from(feedback).where(eq(feedback.status, status));
  return Number(row.n);
}

export async function findReport(db: Conn, id: number, lock = false): Promise<ReportRow | null> {
  const query = db.select().from(feedback).where(eq(feedback.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function resolveReport(
  tx: Tx,
  id: number,
  values: { by: number; at: Date; action: 'none' | 'hide' | 'flag' | 'warn'; note: string },
): Promise<ReportRow> {
  const [row] = await tx
    .update(feedback)
    .set({
      status: 'resolved',
      resolvedAt: values.at,
      resolvedBy: values.by,
      resolutionAction: values.action,
      resolutionNote: values.note,
    })
    .where(eq(feedback.id, id))
    .returning();
  return row;
}

export async function openReportsOf(db: Conn, profileId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(feedback)
    .where(and(eq(feedback.profileId, profileId), eq(feedback.status, 'open')));
  return Number(row.n);
}

export async function openReportsByReason(db: Conn): Promise<Record<string, number>> {
  const rows = await db
    .select({ reason: feedback.reason, n: count() })
    .from(feedback)
    .where(eq(feedback.status, 'open'))
    .groupBy(feedback.reason);
  return Object.fromEntries(rows.map((r) => [r.reason, Number(r.n)]));
}

/** For each instant: reports that had come in and were not resolved yet. */
export async function openReportsAt(db: Conn, instants: Date[]): Promise<number[]> {
  return countsAt(
    db,
    instants,
    (at) => sql`select count(*)::int from feedback f
      where f.created_at <= ${at} and (f.resolved_at is null or f.resolved_at > ${at})`,
  );
}

async function countsAt(db: Conn, instants: Date[], count: (at: SQL) => SQL): Promise<number[]> {
  if (!instants.length) return [];
  const list = sql.join(
    instants.map((d) => sql`(${d.toISOString()}::timestamptz)`),
    sql`, `,
  );
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select (${count(sql`t.at`)}) as n from (values ${list}) as t(at) order by t.at`,
  );
  return rows.map((r) => Number(r.n));
}

// ---------------------------------------------------------------- audit log

export interface AuditFilter {
  action?: string;
  actorId?: number;
  targetUserId?: number;
  from?: Date;
  until?: Date;
}

export async function auditEntries(db: Conn, filter: AuditFilter, limit: number, offset: number) {
  const where: SQL[] = [];
  if (filter.action) {
    const family = filter.action.replace(/\.$/, '');
    where.push(or(eq(auditLog.action, family), sql`${auditLog.action} like ${`${likeEscape(family)}.%`}`)!);
  }
  if (filter.actorId) where.push(eq(auditLog.actorId, filter.actorId));
  if (filter.targetUserId) where.push(eq(auditLog.targetUserId, filter.targetUserId));
  if (filter.from) where.push(gte(auditLog.createdAt, filter.from));
  if (filter.until) where.push(lt(auditLog.createdAt, filter.until));
  return db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit)
    .offset(offset);
}

// ---------------------------------------------------------------- duplicate pictures

const SCAN_CURSOR = 'admin.duplicateScan.cursor';

export async function readScanCursor(db: Conn): Promise<number> {
  const [row] = await db.select().from(settings).where(eq(settings.key, SCAN_CURSOR));
  return row ? Number(row.value) : 0;
}

/** The duplicate scan's position, locked for this transaction: one scanner at a time on any instance. */
export async function lockScanCursor(tx: Tx): Promise<number> {
  await tx.insert(settings).values({ key: SCAN_CURSOR, value: 0 }).onConflictDoNothing();
  const [row] = await tx.select().from(settings).where(eq(settings.key, SCAN_CURSOR)).for('update');
  return Number(row.value);
}

export async function setScanCursor(tx: Tx, cursor: number) {
  await tx.update(settings).set({ value: cursor }).where(eq(settings.key, SCAN_CURSOR));
}

export async function insertMatches(
  tx: Tx,
  rows: Array<{ mediaId: number; otherMediaId: number; userId: number; otherUserId: number; distance: number }>,
  at: Date,
) {
  if (!rows.length) return 0;
  const inserted = await tx
    .insert(duplicateMatches)
    .values(rows.map((r) => ({ ...r, createdAt: at })))
    .onConflictDoNothing()
    .returning({ id: duplicateMatches.id });
  return inserted.length;
}

export type MatchRow = typeof duplicateMatches.$inferSelect;

export async function matches(db: Conn, status: 'open' | 'dismissed', limit: number, offset: number) {
  return db
    .select()
    .from(duplicateMatches)
    .where(eq(duplicateMatches.status, status))
    .orderBy(
      status === 'open' ? asc(duplicateMatches.distance) : desc(duplicateMatches.decidedAt),
      desc(duplicateMatches.id),
    )
    .limit(limit)
    .offset(offset);
}

export async function findMatch(db: Conn, id: number, lock = false): Promise<MatchRow | null> {
  const query = db.select().from(duplicateMatches).where(eq(duplicateMatches.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function dismissMatch(tx: Tx, id: number, by: number, at: Date): Promise<MatchRow> {
  const [row] = await tx
    .update(duplicateMatches)
    .set({ status: 'dismissed', decidedBy: by, decidedAt: at })
    .where(eq(duplicateMatches.id, id))
    .returning();
  return row;
}

export async function countOpenMatches(db: Conn): Promise<number> {
  const [row] = await db.select({ n: count() }).from(duplicateMatches).where(eq(duplicateMatches.status, 'open'));
  return Number(row.n);
}

// ---------------------------------------------------------------- overview

export async function accountCounts(db: Conn, from: Date, until: Date) {
  const [[all], perDay] = await Promise.all([
    db.select({ n: count() }).from(accounts).where(ne(accounts.status, 'deleted')),
    db
      .select({ day: sql<string>`to_char(${accounts.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`, n: count() })
      .from(accounts)
      .where(and(gte(accounts.createdAt, from), lt(accounts.createdAt, until)))
      .groupBy(sql`1`),
  ]);
  return { total: Number(all.n), perDay: new Map(perDay.map((r) => [r.day, Number(r.n)])) };
}

export async function countListed(db: Conn): Promise<number> {
  const [row] = await db.select({ n: count() }).from(profiles).where(eq(profiles.listed, true));
  return Number(row.n);
}

export async function writeSnapshots(db: Conn, day: string, values: Record<string, number>) {
  const rows = Object.entries(values).map(([metric, value]) => ({ day, metric, value }));
  if (!rows.length) return;
  await db
    .insert(metricSnapshots)
    .values(rows)
    .onConflictDoUpdate({ target: [metricSnapshots.metric, metricSnapshots.day], set: { value: sql`excluded.value` } });
}

export async function snapshots(db: Conn, metrics: string[], fromDay: string, untilDay: string) {
  const rows = await db
    .select()
    .from(metricSnapshots)
    .where(
      and(
        inArray(metricSnapshots.metric, metrics),
        gte(metricSnapshots.day, fromDay),
        lte(metricSnapshots.day, untilDay),
      ),
    );
  const out = new Map<string, Map<string, number>>();
  for (const r of rows) {
    if (!out.has(r.metric)) out.set(r.metric, new Map());
    out.get(r.metric)!.set(r.day, Number(r.value));
  }
  return out;
}
