// Credits loaded and spent per UTC day, for the admin overview: sums of the entries on advertisers'
// ledger accounts, by the kind of transaction they belong to.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { queryRows } from '../../db/client';

export interface DailyFlows {
  /** One value per day from `from`, minor units. */
  loaded: number[];
  spent: number[];
}

export async function dailyFlows(ctx: AppContext, from: Date, days: number): Promise<DailyFlows> {
  const until = new Date(from.getTime() + days * 86_400_000);
  const rows = await queryRows<{ day: string; loaded: string; spent: string }>(
    ctx.db,
    sql`select to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
          coalesce(sum(e.amount) filter (where t.kind = 'load'), 0)::bigint::text as loaded,
          coalesce(-sum(e.amount) filter (where t.kind in ('purchase', 'auto_topup')), 0)::bigint::text as spent
        from ledger_entries e
        join ledger_accounts a on a.id = e.ledger_account_id and a.kind = 'user'
        join ledger_transactions t on t.id = e.transaction_id
        where e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${until.toISOString()}::timestamptz
        group by 1`,
  );
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
