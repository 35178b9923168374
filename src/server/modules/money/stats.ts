// Credits loaded and spent per UTC day, for the admin overview: sums of the entries on advertisers'
// ledger accounts, by the kind of transaction they belong to.
import type { AppContext } from '../../context';
import { dailyFlowRows } from './ledger.repo';

export interface DailyFlows {
  /** One value per day from `from`, minor units. */
  loaded: number[];
  spent: number[];
}

export async function dailyFlows(ctx: AppContext, from: Date, days: number): Promise<DailyFlows> {
  const until = new Date(from.getTime() + days * 86_400_000);
  const rows = await dailyFlowRows(ctx.db, from, until);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const loaded: number[] = [];
  const spent: number[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    loaded.push(Number(byDay.get(day)?.loaded ?? 0));
    spent.push(Number(byDay.get(day)?.spent ?? 0));
  }
  return { loaded, spent };
}
