// SQL of profile comments. Soft-deleted comments and comments of accounts that are no longer active
// (suspended, deleted and waiting for the purge) are never shown.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

export interface CommentTarget {
  user_id: number;
  listed: boolean;
  comments_enabled: boolean;
}

/** The profile a comment is about, unless its account is gone. */
export async function findTarget(db: Db, profileId: number): Promise<CommentTarget | null> {
  const [row] = await queryRows<CommentTarget>(
    db,
    sql`
    select p.user_id, p.listed, p.comments_enabled
    from profiles p join accounts a on a.id = p.user_id
    where p.user_id = ${profileId} and a.status <> 'deleted'`,
  );
  return row ?? null;
}

export interface CommentRow {
  id: number;
  profile_id: number;
  author_id: number;
  author_name: string | null;
  body: string;
  created_at: string;
}

const visible = sql`c.deleted_at is null and a.status = 'active'`;

export function listComments(db: Db, profileId: number, limit: number, offset: number) {
  return queryRows<CommentRow>(
    db,
    sql`
    select c.id, c.profile_id, c.author_id, ap.screen_name as author_name, c.body,
           to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at
    from comments c
    join accounts a on a.id = c.author_id
    left join profiles ap on ap.user_id = c.author_id
    where c.profile_id = ${profileId} and ${visible}
    order by c.created_at desc, c.id desc
    limit ${limit} offset ${offset}`,
  );
}

export async function countComments(db: Db, profileId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`
    select count(*)::int as n from comments c join accounts a on a.id = c.author_id
    where c.profile_id = ${profileId} and ${visible}`,
  );
  return Number(row.n);
}

export async function insertComment(db: Db, profileId: number, authorId: number, body: string): Promise<CommentRow> {
  const [row] = await queryRows<CommentRow>(
    db,
    sql`
    with c as (
      insert into comments (profile_id, author_id, body) values (${profileId}, ${authorId}, ${body})
      returning id, profile_id, author_id, body, created_at
    )
    select c.id, c.profile_id, c.author_id, ap.screen_name as author_name, c.body,
           to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at
    from c left join profiles ap on ap.user_id = c.author_id`,
  );
  return row;
}

export async function findComment(db: Db, commentId: number) {
  const [row] = await queryRows<{ id: number; profile_id: number }>(
    db,
    sql`select id, profile_id from comments where id = ${commentId} and deleted_at is null`,
  );
  return row ?? null;
}

/** Soft delete: the row stays for moderation history. True when this call deleted it. */
export async function deleteComment(db: Db, commentId: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update comments set deleted_at = now() where id = ${commentId} and deleted_at is null returning id`,
  );
  return rows.length > 0;
}
