// SQL of verification requests: the latest request of an account, the decision, and the photo IDs whose
// retention is over.
import { and, asc, count, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client';
import { profiles, verificationRequests } from '../../db/schema';

type Conn = Db | Tx;
export type RequestRow = typeof verificationRequests.$inferSelect;

export async function profileOf(db: Conn, userId: number) {
  const [row] = await db
    .select({
      status: profiles.verificationStatus,
      verifiedAt: profiles.verifiedAt,
      avatarMediaId: profiles.avatarMediaId,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  return row ?? null;
}

export async function latestRequest(db: Conn, userId: number): Promise<RequestRow | null> {
  const [row] = await db
    .select()
    .from(verificationRequests)
    .where(eq(verificationRequests.userId, userId))
    .orderBy(desc(verificationRequests.id))
    .limit(1);
  return row ?? null;
}

export async function findRequest(db: Conn, requestId: number, lock = false): Promise<RequestRow | null> {
  const query = db.select().from(verificationRequests).where(eq(verificationRequests.id, requestId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function insertRequest(tx: Tx, userId: number, photoIdKey: string, now: Date): Promise<RequestRow> {
  const [row] = await tx
    .insert(verificationRequests)
    .values({ userId, photoIdKey, status: 'pending', createdAt: now })
    .returning();
  return row;
}

export async function setProfileStatus(
  tx: Tx,
  userId: number,
  status: 'pending' | 'verified' | 'declined',
  verifiedAt: Date | null,
) {
  await tx.update(profiles).set({ verificationStatus: status, verifiedAt }).where(eq(profiles.userId, userId));
}

export async function decide(
  tx: Tx,
  requestId: number,
  values: Pick<RequestRow, 'status' | 'declineReason' | 'decidedBy' | 'decidedAt' | 'photoIdDeleteAfter'>,
): Promise<RequestRow> {
  const [row] = await tx
    .update(verificationRequests)
    .set(values)
    .where(eq(verificationRequests.id, requestId))
    .returning();
  return row;
}

export async function expiredPhotoIds(db: Conn, now: Date, limit: number) {
  return db
    .select({ id: verificationRequests.id, key: verificationRequests.photoIdKey })
    .from(verificationRequests)
    .where(and(isNotNull(verificationRequests.photoIdKey), lte(verificationRequests.photoIdDeleteAfter, now)))
    .limit(limit);
}

export async function forgetPhotoId(db: Conn, requestId: number) {
  await db.update(verificationRequests).set({ photoIdKey: null }).where(eq(verificationRequests.id, requestId));
}

export async function requestsByStatus(
  db: Conn,
  status: RequestRow['status'],
  limit: number,
  offset: number,
): Promise<RequestRow[]> {
  const order =
    status === 'pending'
      ? [asc(verificationRequests.createdAt), asc(verificationRequests.id)]
      : [desc(verificationRequests.decidedAt), desc(verificationRequests.id)];
  return db
    .select()
    .from(verificationRequests)
    .where(eq(verificationRequests.status, status))
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
}

export async function countByStatus(db: Conn, status: RequestRow['status']): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(verificationRequests)
    .where(eq(verificationRequests.status, status));
  return Number(row.n);
}

export async function oldestPending(db: Conn): Promise<Date | null> {
  const [row] = await db
    .select({ at: verificationRequests.createdAt })
    .from(verificationRequests)
    .where(eq(verificationRequests.status, 'pending'))
    .orderBy(asc(verificationRequests.createdAt))
    .limit(1);
  return row?.at ?? null;
}

/** For each instant: requests that had come in and were not yet decided then. */
export async function pendingAt(db: Conn, instants: Date[]): Promise<number[]> {
  if (!instants.length) return [];
  const list = sql.join(
    instants.map((d) => sql`(${d.toISOString()}::timestamptz)`),
    sql`, `,
  );
  const rows = await queryRows<{ at: string; n: number }>(
    db,
    sql`select t.at::text as at, (
          select count(*)::int from verification_requests r
          where r.created_at <= t.at and (r.decided_at is null or r.decided_at > t.at)
        ) as n
        from (values ${list}) as t(at) order by t.at`,
  );
  return rows.map((r) => Number(r.n));
}
