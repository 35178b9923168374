// SQL of in-app notices: an account's notices, newest first, and their read marks.
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { notices } from '../../db/schema';

type Conn = Db | Tx;
export type NoticeRow = typeof notices.$inferSelect;
export type NewNoticeRow = typeof notices.$inferInsert;

export async function insertNotice(db: Conn, row: NewNoticeRow): Promise<number> {
  const [inserted] = await db.insert(notices).values(row).returning({ id: notices.id });
  return inserted.id;
}

/** Marks read, at `at`, the account's unread notices: all of them, or those of these kinds or ids. */
export async function markUnreadRead(
  db: Conn,
  userId: number,
  at: Date,
  only: { kinds?: string[]; ids?: number[] } = {},
) {
  await db
    .update(notices)
    .set({ readAt: at })
    .where(
      and(
        eq(notices.userId, userId),
        ...(only.kinds ? [inArray(notices.kind, only.kinds)] : []),
        isNull(notices.readAt),
        ...(only.ids ? [inArray(notices.id, only.ids)] : []),
      ),
    );
}

export async function countUnread(db: Conn, userId: number): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(notices)
    .where(and(eq(notices.userId, userId), isNull(notices.readAt)));
  return n;
}

export async function latestOf(db: Conn, userId: number, limit: number): Promise<NoticeRow[]> {
  return db
    .select()
    .from(notices)
    .where(eq(notices.userId, userId))
    .orderBy(desc(notices.createdAt), desc(notices.id))
    .limit(limit);
}
