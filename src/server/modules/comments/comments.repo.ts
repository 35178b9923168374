// SQL of profile comments. Soft-deleted comments and comments of accounts that are no longer active
// (suspended, deleted and waiting for the purge) are never shown. Times are the app's clock (ctx.now()).
import { and, count, desc, eq, isNull, ne } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { accounts, comments, profiles } from '../../db/schema';

/** The profile a comment is about, unless its account is gone. */
export async function findTarget(db: Db, profileId: number) {
  const [row] = await db
    .select({ user_id: profiles.userId, listed: profiles.listed, comments_enabled: profiles.commentsEnabled })
    .from(profiles)
    .innerJoin(accounts, eq(accounts.id, profiles.userId))
    .where(and(eq(profiles.userId, profileId), ne(accounts.status, 'deleted')));
  return row ?? null;
}

export type CommentTarget = NonNullable<Awaited<ReturnType<typeof findTarget>>>;

/** The author's profile (for the name). */
const ap = alias(profiles, 'ap');

const commentColumns = {
  id: comments.id,
  profile_id: comments.profileId,
  author_id: comments.authorId,
  author_name: ap.screenName,
  body: comments.body,
  createdAt: comments.createdAt,
};

type Selected = Awaited<ReturnType<ReturnType<typeof selectComments>['execute']>>[number];
export type CommentRow = Omit<Selected, 'createdAt'> & { created_at: string };

const selectComments = (db: Db) =>
  db.select(commentColumns).from(comments).leftJoin(ap, eq(ap.userId, comments.authorId));

/** UTC to the second, as the API has always said it: 2026-11-23T21:40:01Z. */
const present = ({ createdAt, ...row }: Selected): CommentRow => ({
  ...row,
  created_at: createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
});

const visible = and(isNull(comments.deletedAt), eq(accounts.status, 'active'));

export async function listComments(db: Db, profileId: number, limit: number, offset: number) {
  const rows = await selectComments(db)
    .innerJoin(accounts, eq(accounts.id, comments.authorId))
    .where(and(eq(comments.profileId, profileId), visible))
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(limit)
    .offset(offset);
  return rows.map(present);
}

export async function countComments(db: Db, profileId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(comments)
    .innerJoin(accounts, eq(accounts.id, comments.authorId))
    .where(and(eq(comments.profileId, profileId), visible));
  return row.n;
}

export async function insertComment(
  db: Db,
  input: { profileId: number; authorId: number; body: string; now: Date },
): Promise<CommentRow> {
  const [{ id }] = await db
    .insert(comments)
    .values({ profileId: input.profileId, authorId: input.authorId, body: input.body, createdAt: input.now })
    .returning({ id: comments.id });
  const [row] = await selectComments(db).where(eq(comments.id, id));
  return present(row);
}

export async function findComment(db: Db, commentId: number) {
  const [row] = await db
    .select({ id: comments.id, profile_id: comments.profileId })
    .from(comments)
    .where(and(eq(comments.id, commentId), isNull(comments.deletedAt)));
  return row ?? null;
}

/** Soft delete at `now`: the row stays for moderation history. True when this call deleted it. */
export async function deleteComment(db: Db, commentId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(comments)
    .set({ deletedAt: now })
    .where(and(eq(comments.id, commentId), isNull(comments.deletedAt)))
    .returning({ id: comments.id });
  return rows.length > 0;
}
