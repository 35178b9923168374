// Reports from the public (spec section 6 "Feedback"; section 7 "Admin"): the open and resolved lists,
// urgent reasons first, and resolving one with a note and an action (none, hide the ad, flag the profile,
// or warn its owner), audited in the transaction that resolves it.
import { msg } from '#shared/api/messages.ts';
import { ADMIN_PAGE_SIZE, type Report, type ReportsPage, type ResolveReportBody } from '#shared/schemas/admin.ts';
import type { AppContext } from '../../context';
import { writeAudit } from '../../db/audit';
import type { Tx } from '../../db/client';
import { notFound, ValidationError } from '../../lib/errors';
import { presentReport } from './admin.presenter';
import * as repo from './admin.repo';
import { summariesById, warn, type Actor } from './people.service';

async function presentReports(ctx: AppContext, rows: repo.ReportRow[]): Promise<Report[]> {
  const people = await summariesById(
    ctx,
    rows.flatMap((r) => (r.profileId ? [r.profileId] : [])),
  );
  const now = ctx.now().getTime();
  return rows.map((r) => presentReport(r, (r.profileId && people.get(r.profileId)) || null, now));
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
