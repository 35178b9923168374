// The admin overview (spec section 7 "Admin"): today's counts and 30-day series of accounts, listings,
// queues, reports, money and auto-topup. Counts that keep no history are written once a day by a periodic
// task (snapshotMetrics) so the series can chart them.
import type { Overview } from '#shared/schemas/admin.ts';
import type { AppContext } from '../../context';
import { adminStats as autoTopupStats } from '../auto-topup/admin-review.service';
import * as media from '../media/media.service';
import * as money from '../money/money.service';
import * as verification from '../verification/verification.service';
import * as repo from './admin.repo';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

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
