// The admin panel's service (spec sections 4, 6, 7 "Admin"; DESIGN.md "Verification and moderation"):
// people, the flag, warnings, the verification and video queues, reports, the audit log and the overview.
// Every action writes its audit line (who, what, on whom, before and after) in its own transaction.
// Media, verification, money and auto-topup are reached through their services.
import { msg } from '#shared/api/messages.ts';
import { URGENT_FEEDBACK_REASONS } from '#shared/constants.ts';
import {
  ADMIN_PAGE_SIZE,
  type AdminSearchPage,
  type AdminUser,
  type AdminUserSummary,
  type AuditEntry,
  type AuditLogBody,
  type AuditLogPage,
  type FlagBody,
  type Overview,
  type Report,
  type ReportsPage,
  type ResolveReportBody,
  type VerificationDataPage,
  type VerificationItem,
  type VerifyBody,
  type VerifyVideoBody,
  type VideosPage,
} from '#shared/schemas/admin.ts';
import type { AppContext } from '../../context';
import { writeAudit } from '../../db/audit';
import type { Tx } from '../../db/client';
import { notFound, ValidationError } from '../../lib/errors';
import { adminStats as autoTopupStats } from '../auto-topup/admin-review.service';
import * as media from '../media/media.service';
import * as money from '../money/money.service';
import * as verification from '../verification/verification.service';
import { tellAdvertiser } from './admin.mail';
import * as repo from './admin.repo';

export interface Actor {
  id: number;
  role: 'advertiser' | 'admin';
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

// ---------------------------------------------------------------- people

export async function presentPeople(ctx: AppContext, rows: repo.PersonRow[]): Promise<AdminUserSummary[]> {
  const avatars = await media.avatarPictures(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    user_id: r.id,
    screen_name: r.screenName,
    username: r.username,
    email: r.email,
    phone: r.phone,
    city: r.city,
    role: r.role,
    status: r.status,
    flagged: r.flagged ?? false,
    listed: r.listed ?? false,
    verification_status: r.verificationStatus ?? 'none',
    avatar: avatars.get(r.id) ?? null,
    created_at: r.createdAt.toISOString(),
  }));
}

async function summariesById(ctx: AppContext, ids: number[]): Promise<Map<number, AdminUserSummary>> {
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

// ---------------------------------------------------------------- verification

async function presentRequests(ctx: AppContext, rows: verification.QueuedRequest[]): Promise<VerificationItem[]> {
  const people = await summariesById(
    ctx,
    rows.map((r) => r.userId),
  );
  return rows
    .filter((r) => people.has(r.userId))
    .map((r) => ({
      id: r.id,
      status: r.status,
      user: people.get(r.userId)!,
      created_at: r.createdAt.toISOString(),
      decided_at: iso(r.decidedAt),
      decline_reason: r.declineReason,
      photo_id_url: r.hasPhotoId ? `/api/admin/photo-id/${r.id}` : null,
      photo_id_delete_after: iso(r.photoIdDeleteAfter),
    }));
}

export async function verificationQueue(
  ctx: AppContext,
  status: 'pending' | 'verified' | 'declined',
  page: number,
): Promise<VerificationDataPage> {
  const { rows, total, hasMore } = await verification.listRequests(ctx, { status, page, size: ADMIN_PAGE_SIZE });
  return { data: await presentRequests(ctx, rows), page, has_more: hasMore, total };
}

/** Verify, or decline with a reason: the advertiser sees it on /edit/verify, in a notice and by mail. */
export async function verify(ctx: AppContext, actor: Actor, body: VerifyBody): Promise<VerificationItem> {
  await verification.decideVerification(
    ctx,
    { requestId: body.request_id, actor, decision: body.decision, reason: body.reason },
    async (tx, decided) => {
      const at = decided.decidedAt ?? ctx.now();
      await tellAdvertiser(
        tx,
        decided.userId,
        body.decision === 'verified' ? { kind: 'verified' } : { kind: 'declined', reason: body.reason! },
        at,
      );
    },
  );
  const row = await verification.findQueuedRequest(ctx, body.request_id);
  const [item] = await presentRequests(ctx, row ? [row] : []);
  if (!item) throw notFound();
  return item;
}

// ---------------------------------------------------------------- videos

export async function videos(ctx: AppContext, page: number): Promise<VideosPage> {
  return media.listPendingVideos(ctx, { page, pageSize: ADMIN_PAGE_SIZE });
}

export async function verifyVideo(ctx: AppContext, actor: Actor, mediaId: number, body: VerifyVideoBody) {
  const done =
    body.decision === 'approved'
      ? await media.approveVideo(ctx, { mediaId, actor })
      : await media.rejectVideo(ctx, { mediaId, actor, reason: body.reason });
  const row = await media.picturesByIds(ctx, [mediaId]);
  return { id: done.id, user_id: row.get(mediaId)?.userId ?? 0, status: done.status };
}

// ---------------------------------------------------------------- reports

const isUrgent = (reason: string) => (URGENT_FEEDBACK_REASONS as readonly string[]).includes(reason);

async function presentReports(ctx: AppContext, rows: repo.ReportRow[]): Promise<Report[]> {
  const people = await summariesById(
    ctx,
    rows.flatMap((r) => (r.profileId ? [r.profileId] : [])),
  );
  const now = ctx.now().getTime();
  return rows.map((r) => ({
    id: r.id,
    reason: r.reason,
    urgent: r.priority > 0 || isUrgent(r.reason),
    message: r.message,
    contact: r.contact,
    profile: (r.profileId && people.get(r.profileId)) || null,
    created_at: r.createdAt.toISOString(),
    age_hours: Math.max(0, Math.floor((now - r.createdAt.getTime()) / HOUR_MS)),
    status: r.status,
    resolved_at: iso(r.resolvedAt),
    resolved_by: r.resolvedBy,
    resolution_action: r.resolutionAction,
    resolution_note: r.resolutionNote,
  }));
}

export async function reports(ctx: AppContext, status: 'open' | 'resolved', page: number): Promise<ReportsPage> {
  const [rows, total] = await Promise.all([
    repo.reports(ctx.db, status, ADMIN_PAGE_SIZE + 1, (page - 1) * ADMIN_PAGE_SIZE),
    repo.countReports(ctx.db, status),
  ]);
  return {
    data: await presentReports(ctx, rows.slice(0, ADMIN_PAGE_SIZE)),
    page,
    has_more: rows.length > ADMIN_PAGE_SIZE,
    total,
  };
}

const alreadyResolved = () => ValidationError.field('report_id', msg('admin.reportResolved'));

/** Resolves a report with a note and an action: none, hide the ad, flag the profile, or warn its owner. */
export async function resolveReport(ctx: AppContext, actor: Actor, body: ResolveReportBody): Promise<Report> {
  const report = await repo.findReport(ctx.db, body.report_id);
  if (!report) throw notFound();
  if (report.status !== 'open') throw alreadyResolved();
  const profileId = report.profileId;
  if (body.action !== 'none' && !profileId) throw ValidationError.field('action', msg('admin.reportNoProfile'));
  const now = ctx.now();

  const resolve = async (tx: Tx) => {
    const locked = await repo.findReport(tx, body.report_id, true);
    if (!locked || locked.status !== 'open') throw alreadyResolved();
    const change =
      body.action === 'hide'
        ? await repo.setSwitches(tx, profileId!, { adStatus: 'hidden' }, now)
        : body.action === 'flag'
          ? await repo.setSwitches(tx, profileId!, { flagged: true }, now)
          : null;
    if ((body.action === 'hide' || body.action === 'flag') && !change)
      throw ValidationError.field('action', msg('admin.reportNoProfile'));
    await repo.resolveReport(tx, locked.id, { by: actor.id, at: now, action: body.action, note: body.note });
    await writeAudit(tx, {
      actorId: actor.id,
      action: 'report.resolve',
      targetUserId: profileId,
      data: { report_id: locked.id, reason: locked.reason, action: body.action, note: body.note },
      before: { status: 'open', ...(change ? change.before : {}) },
      after: { status: 'resolved', ...(change ? change.after : {}) },
      at: now,
    });
  };

  if (body.action === 'warn') await warn(ctx, actor, profileId!, resolve);
  else await ctx.db.transaction(resolve);
  const [presented] = await presentReports(ctx, [(await repo.findReport(ctx.db, body.report_id))!]);
  return presented;
}

// ---------------------------------------------------------------- audit log

export async function auditLog(ctx: AppContext, body: AuditLogBody, page: number): Promise<AuditLogPage> {
  const rows = await repo.auditEntries(
    ctx.db,
    {
      action: body.action || undefined,
      actorId: body.actor_id,
      targetUserId: body.target_user_id,
      from: body.from ? new Date(`${body.from}T00:00:00Z`) : undefined,
      until: body.until ? new Date(new Date(`${body.until}T00:00:00Z`).getTime() + DAY_MS) : undefined,
    },
    ADMIN_PAGE_SIZE + 1,
    (page - 1) * ADMIN_PAGE_SIZE,
  );
  const shown = rows.slice(0, ADMIN_PAGE_SIZE);
  const people = await repo.peopleByIds(ctx.db, [
    ...shown.flatMap((r) => (r.actorId ? [r.actorId] : [])),
    ...shown.flatMap((r) => (r.targetUserId ? [r.targetUserId] : [])),
  ]);
  const person = (id: number | null) => {
    if (!id) return null;
    const p = people.get(id);
    // The account may be gone: the line still names its id.
    return { id, username: p?.username ?? null, screen_name: p?.screenName ?? null };
  };
  const data: AuditEntry[] = shown.map((r) => ({
    id: Number(r.id),
    action: r.action,
    actor: person(r.actorId),
    target: person(r.targetUserId),
    data: r.data,
    before: r.before ?? null,
    after: r.after ?? null,
    created_at: r.createdAt.toISOString(),
  }));
  return { data, page, has_more: rows.length > ADMIN_PAGE_SIZE };
}

// ---------------------------------------------------------------- overview

const SNAPSHOT_METRICS = ['listed_profiles', 'pending_videos', 'active_timers'] as const;
export const OVERVIEW_DAYS = 30;

const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const startOfUtcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

async function liveSnapshot(ctx: AppContext, from: Date) {
  const [listed, pendingVideos, timers] = await Promise.all([
    repo.countListed(ctx.db),
    media.listPendingVideos(ctx, { page: 1, pageSize: 1 }).then((p) => p.total),
    autoTopupStats(ctx, from, 1),
  ]);
  return { listed_profiles: listed, pending_videos: pendingVideos, active_timers: timers.activeTimers };
}

/** Periodic task: today's values of the counts that keep no history (the overview charts them). */
export async function snapshotMetrics(ctx: AppContext) {
  const now = ctx.now();
  await repo.writeSnapshots(ctx.db, dayOf(now), await liveSnapshot(ctx, startOfUtcDay(now)));
}

export async function overview(ctx: AppContext): Promise<Overview> {
  const now = ctx.now();
  const today = startOfUtcDay(now);
  const from = new Date(today.getTime() - (OVERVIEW_DAYS - 1) * DAY_MS);
  const until = new Date(today.getTime() + DAY_MS);
  const days = Array.from({ length: OVERVIEW_DAYS }, (_, i) => new Date(from.getTime() + i * DAY_MS));
  // A day's value is the state at its end; today's is the state now.
  const dayEnds = days.map((d) => new Date(Math.min(d.getTime() + DAY_MS - 1, now.getTime())));
  const dayKeys = days.map(dayOf);

  const [accounts, live, pending, byReason, openAt, flows, timers, snaps, duplicates] = await Promise.all([
    repo.accountCounts(ctx.db, from, until),
    liveSnapshot(ctx, from),
    verification.pendingStats(ctx, dayEnds),
    repo.openReportsByReason(ctx.db),
    repo.openReportsAt(ctx.db, dayEnds),
    money.dailyFlows(ctx, from, OVERVIEW_DAYS),
    autoTopupStats(ctx, from, OVERVIEW_DAYS),
    repo.snapshots(ctx.db, [...SNAPSHOT_METRICS], dayKeys[0], dayKeys[dayKeys.length - 1]),
    repo.countOpenMatches(ctx.db),
  ]);
  const snapshotSeries = (metric: (typeof SNAPSHOT_METRICS)[number]) =>
    dayKeys.map((day, i) => (i === dayKeys.length - 1 ? live[metric] : (snaps.get(metric)?.get(day) ?? null)));
  const newAccounts = dayKeys.map((d) => accounts.perDay.get(d) ?? 0);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

  return {
    days: dayKeys,
    currency: ctx.env.SITE_CURRENCY,
    counts: {
      accounts: accounts.total,
      new_accounts_30d: sum(newAccounts),
      listed_profiles: live.listed_profiles,
      pending_verifications: pending.count,
      oldest_pending_verification_hours: pending.oldest
        ? Math.max(0, Math.floor((now.getTime() - pending.oldest.getTime()) / HOUR_MS))
        : null,
      pending_videos: live.pending_videos,
      open_reports: sum(Object.values(byReason)),
      open_reports_by_reason: byReason,
      open_duplicates: duplicates,
      credits_loaded_30d: sum(flows.loaded),
      credits_spent_30d: sum(flows.spent),
      active_timers: timers.activeTimers,
      failed_runs_30d: sum(timers.failedRuns),
    },
    series: {
      new_accounts: newAccounts,
      listed_profiles: snapshotSeries('listed_profiles'),
      pending_verifications: pending.series,
      pending_videos: snapshotSeries('pending_videos'),
      open_reports: openAt,
      credits_loaded: flows.loaded,
      credits_spent: flows.spent,
      active_timers: snapshotSeries('active_timers'),
      failed_runs: timers.failedRuns,
    },
  };
}
