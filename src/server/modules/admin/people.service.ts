// The admin's people (spec section 7 "Admin"; DESIGN.md "Verification and moderation"): search, one
// person's card, the flag and the warning. Every action writes its audit line (who, what, on whom, before
// and after) in its own transaction. The other admin screens are queues.service.ts (verification and
// videos), reports.service.ts, audit-log.service.ts, overview.service.ts and duplicates.ts.
import { msg } from '#shared/api/messages.ts';
import {
  ADMIN_PAGE_SIZE,
  type AdminSearchPage,
  type AdminUser,
  type AdminUserSummary,
  type FlagBody,
} from '#shared/schemas/admin.ts';
import type { AppContext } from '../../context';
import { writeAudit } from '../../db/audit';
import type { Tx } from '../../db/client';
import { notFound } from '../../lib/errors';
import * as media from '../media/media.service';
import * as money from '../money/money.service';
import { tellAdvertiser } from './admin.mail';
import { iso, presentPerson } from './admin.presenter';
import * as repo from './admin.repo';

export interface Actor {
  id: number;
  role: 'advertiser' | 'admin';
}

export async function presentPeople(ctx: AppContext, rows: repo.PersonRow[]): Promise<AdminUserSummary[]> {
  const avatars = await media.avatarPictures(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentPerson(r, avatars.get(r.id) ?? null));
}

export async function summariesById(ctx: AppContext, ids: number[]): Promise<Map<number, AdminUserSummary>> {
  const rows = await repo.peopleByIds(ctx.db, ids);
  const presented = await presentPeople(ctx, [...rows.values()]);
  return new Map(presented.map((p) => [p.user_id, p]));
}

export async function getUser(ctx: AppContext, userId: number): Promise<AdminUser> {
  const row = await repo.personById(ctx.db, userId);
  if (!row) throw notFound(msg('admin.userNotFound'));
  const [[summary], balance, mediaCount, openReports] = await Promise.all([
    presentPeople(ctx, [row]),
    money.balanceOf(ctx, userId),
    media.countMediaOf(ctx, userId),
    repo.openReportsOf(ctx.db, userId),
  ]);
  return {
    ...summary,
    mobile: row.mobile,
    complete: row.complete ?? false,
    ad_status: row.adStatus ?? 'visible',
    verified_at: iso(row.verifiedAt),
    last_seen_at: iso(row.lastSeenAt),
    balance,
    media_count: mediaCount,
    open_reports: openReports,
  };
}

export async function search(ctx: AppContext, q: string, page: number): Promise<AdminSearchPage> {
  const rows = await repo.searchPeople(ctx.db, q, ADMIN_PAGE_SIZE + 1, (page - 1) * ADMIN_PAGE_SIZE);
  return {
    data: await presentPeople(ctx, rows.slice(0, ADMIN_PAGE_SIZE)),
    page,
    has_more: rows.length > ADMIN_PAGE_SIZE,
  };
}

// ---------------------------------------------------------------- flag and warn

/** Flag (or unflag): the profile leaves (or rejoins) every public list at once. Returns the updated user. */
export async function flag(ctx: AppContext, actor: Actor, body: FlagBody): Promise<AdminUser> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const current = await repo.lockSwitches(tx, body.user_id);
    if (!current) throw notFound(msg('admin.userNotFound'));
    const flagged = body.flagged ?? !current.flagged;
    const change = (await repo.setSwitches(tx, body.user_id, { flagged }, now))!;
    await writeAudit(tx, {
      actorId: actor.id,
      action: flagged ? 'user.flag' : 'user.unflag',
      targetUserId: body.user_id,
      before: { ...change.before },
      after: { ...change.after },
      at: now,
    });
  });
  return getUser(ctx, body.user_id);
}

/**
 * Warn: every picture and video of the user is deleted (files, variants and rows), the warning goes by
 * mail and as an in-app notice. `also` runs in the same transaction (a report resolved by this warning).
 */
export async function warn(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  also?: (tx: Tx) => Promise<void>,
): Promise<{ user: AdminUser; deleted: number }> {
  if (!(await repo.personById(ctx.db, userId))) throw notFound(msg('admin.userNotFound'));
  const now = ctx.now();
  const { deleted } = await media.deleteAllMedia(ctx, userId, async (tx, removed) => {
    await writeAudit(tx, {
      actorId: actor.id,
      action: 'user.warn',
      targetUserId: userId,
      data: { media_ids: removed.ids },
      before: { media: removed.deleted },
      after: { media: 0 },
      at: now,
    });
    await tellAdvertiser(tx, userId, { kind: 'warning' }, now);
    await also?.(tx);
  });
  return { user: await getUser(ctx, userId), deleted };
}
