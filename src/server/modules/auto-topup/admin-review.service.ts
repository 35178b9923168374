// What admins see of auto-topup: every timer with its last run and recent failures
// (GET /api/admin/getAutoTopup), and the overview's figures (admin/overview.service.ts).
import { ADMIN_AUTO_TOPUP_PAGE_SIZE, type AdminAutoTopupPage } from '#shared/schemas/auto-topup.ts';
import type { AppContext } from '../../context';
import { homeCityOf, screenNamesOf } from '../listings/listings.service';
import { presentRun, presentTimer } from './auto-topup.presenter';
import * as repo from './auto-topup.repo';

export async function adminList(ctx: AppContext, page: number): Promise<AdminAutoTopupPage> {
  const offset = (page - 1) * ADMIN_AUTO_TOPUP_PAGE_SIZE;
  const { rows, total: n } = await repo.timersPage(ctx.db, ADMIN_AUTO_TOPUP_PAGE_SIZE, offset);
  const now = ctx.now();
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const names = await screenNamesOf(
    ctx.db,
    rows.map((t) => t.userId),
  );
  const data = await Promise.all(
    rows.map(async (t) => {
      const [city, last, failures] = await Promise.all([
        homeCityOf(ctx.db, t.userId),
        repo.lastRunOf(ctx.db, t.id),
        repo.failuresSince(ctx.db, t.id, since),
      ]);
      return {
        ...presentTimer(t, city?.timezone ?? null, now),
        user_id: t.userId,
        screen_name: names.get(t.userId) ?? null,
        timezone: city?.timezone ?? null,
        last_run: last ? presentRun(last) : null,
        failures,
      };
    }),
  );
  return { data, page, has_more: offset + rows.length < n, total: n };
}

/** Admin overview: timers switched on now, and failed or missed runs per UTC day from `from`. */
export async function adminStats(ctx: AppContext, from: Date, days: number) {
  const until = new Date(from.getTime() + days * 86_400_000);
  const [active, byDay] = await Promise.all([
    repo.countEnabledTimers(ctx.db),
    repo.failuresPerDay(ctx.db, from, until),
  ]);
  const failed = Array.from(
    { length: days },
    (_, i) => byDay.get(new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10)) ?? 0,
  );
  return { activeTimers: active, failedRuns: failed };
}
