// In-app notices (auto-topup failures, admin warnings...). A notice keeps message keys and their values,
// so it reads in the language of whoever opens it, when they open it.
import type { MessageParams } from '#shared/api/messages.ts';
import type { Language } from '#shared/constants.ts';
import type { MarkReadBody } from '#shared/schemas/notices.ts';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { presentNotice } from './notices.presenter';
import * as repo from './notices.repo';

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
  if (n.replaces?.length) await repo.markUnreadRead(db, n.userId, n.at, { kinds: n.replaces });
  return repo.insertNotice(db, {
    userId: n.userId,
    kind: n.kind,
    title: n.title,
    message: n.message,
    params: n.params ?? {},
    path: n.path ?? null,
    createdAt: n.at,
  });
}

export async function listNotices(ctx: AppContext, userId: number, lang: Language) {
  const rows = await repo.latestOf(ctx.db, userId, LIST_SIZE);
  return { data: rows.map((r) => presentNotice(r, lang)), unread: await repo.countUnread(ctx.db, userId) };
}

export async function markRead(ctx: AppContext, userId: number, body: MarkReadBody) {
  await repo.markUnreadRead(ctx.db, userId, ctx.now(), 'ids' in body ? { ids: body.ids } : {});
  return { unread: await repo.countUnread(ctx.db, userId) };
}
