// In-app notices (auto-topup failures, admin warnings...). A notice keeps message keys and their values,
// so it reads in the language of whoever opens it, when they open it.
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { msg, type MessageParams } from '#shared/api/messages.ts';
import type { Language } from '#shared/constants.ts';
import type { MarkReadBody, Notice } from '#shared/schemas/notices.ts';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { notices } from '../../db/schema';
import { translateKey } from '../../lib/message-i18n';

const LIST_SIZE = 50;

export interface NewNotice {
  userId: number;
  /** What it is about, for an icon: `auto_topup_failed`, `warning`... */
  kind: string;
  /** Keys of the `messages` catalogue. */
  title: string;
  message: string;
  params?: MessageParams;
  /** Where the notice leads, when anywhere. */
  path?: string | null;
  at: Date;
  /**
   * Kinds this notice makes stale: their unread notices of the account count as read from now on (a
   * verification decided anew replaces the older decision's notice, issue 23 item 6).
   */
  replaces?: string[];
}

/** In the caller's transaction when given: the notice exists only if what it reports happened. */
export async function addNotice(db: Db | Tx, n: NewNotice) {
  if (n.replaces?.length)
    await db
      .update(notices)
      .set({ readAt: n.at })
      .where(and(eq(notices.userId, n.userId), inArray(notices.kind, n.replaces), isNull(notices.readAt)));
  const [row] = await db
    .insert(notices)
    .values({
      userId: n.userId,
      kind: n.kind,
      title: n.title,
      message: n.message,
      params: n.params ?? {},
      path: n.path ?? null,
      createdAt: n.at,
    })
    .returning({ id: notices.id });
  return row.id;
}

async function unread(ctx: AppContext, userId: number) {
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(notices)
    .where(and(eq(notices.userId, userId), isNull(notices.readAt)));
  return n;
}

export async function listNotices(ctx: AppContext, userId: number, lang: Language) {
  const rows = await ctx.db
    .select()
    .from(notices)
    .where(eq(notices.userId, userId))
    .orderBy(desc(notices.createdAt), desc(notices.id))
    .limit(LIST_SIZE);
  const data: Notice[] = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: translateKey(msg(r.title, r.params), lang),
    message: translateKey(msg(r.message, r.params), lang),
    path: r.path,
    read: !!r.readAt,
    created_at: r.createdAt.toISOString(),
  }));
  return { data, unread: await unread(ctx, userId) };
}

export async function markRead(ctx: AppContext, userId: number, body: MarkReadBody) {
  await ctx.db
    .update(notices)
    .set({ readAt: ctx.now() })
    .where(
      and(
        eq(notices.userId, userId),
        isNull(notices.readAt),
        ...('ids' in body ? [inArray(notices.id, body.ids)] : []),
      ),
    );
  return { unread: await unread(ctx, userId) };
}
