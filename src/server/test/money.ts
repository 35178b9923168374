// Helpers of the money tests and the money benchmark: advertisers with a balance, sandbox card tokens, and
// everything that must hold in the money tables whatever happened (moneyProblems).
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { queryRows, type Db } from '../db/client';
import { adjustBalance, ledgerProblems } from '../modules/money/money.service';
import type { ApiClient } from './api-client';
import { createAdvertiser, createSession } from './factories';

let funded = 0;

/** A listed advertiser (bumped a day ago) with `balance` credited by `admin`'s adjustment, and her session. */
export async function fundedAdvertiser(ctx: AppContext, admin: number, balance = 0) {
  const { account } = await createAdvertiser(ctx, { bumpedAt: new Date(Date.now() - 86_400_000) });
  if (balance)
    await adjustBalance(ctx, {
      actor: { id: admin },
      userId: account.id,
      amount: balance,
      reason: 'test',
      idempotencyKey: `fund-${account.id}-${(funded += 1)}`,
    });
  return { id: account.id, session: await createSession(ctx, account.id) };
}

/** A token of one of the sandbox acquirer's test cards, as the checkout's browser gets it. */
export async function sandboxToken(api: ApiClient, number: string): Promise<string> {
  const res = await api('POST', '/sandbox-acquirer/v1/tokens', {
    body: { number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123' },
  });
  if (res.status !== 200) throw new Error(`tokenizing ${number}: ${res.status} ${res.body}`);
  return res.json<{ id: string }>().id;
}

/**
 * What does not hold in the money tables, besides ledgerProblems (each balance the sum of its entries and
 * its last balance_after, each transaction and all balances summing to zero): no user balance below zero
 * but a held one, and only a reversal takes it there; no load reversed beyond its amount;
 * an order is paid exactly when it has one purchase transaction, of its total; a payment succeeded exactly
 * when it has one load transaction, of its amount; no purchase or load without its order or payment; no
 * cart item (an additional location) sold by two paid orders.
 */
const userSideOf = (alias: string) =>
  sql.raw(`(select coalesce(sum(e.amount), 0) from ledger_entries e
      join ledger_accounts a on a.id = e.ledger_account_id and a.kind = 'user' where e.transaction_id = ${alias}.id)`);

export async function moneyProblems(db: Db): Promise<string[]> {
  const problems = await ledgerProblems(db);
  const rows = async (query: ReturnType<typeof sql>) => queryRows<Record<string, unknown>>(db, query);
  const report = (what: string, found: Array<Record<string, unknown>>) => {
    for (const row of found) problems.push(`${what}: ${JSON.stringify(row)}`);
  };
  // Below zero only through a reversal, and then held (decision 0423).
  report(
    'negative user balance on an account not held',
    await rows(
      sql`select id, user_id, balance from ledger_accounts where kind = 'user' and balance < 0 and held_since is null`,
    ),
  );
  report(
    'user balance taken below zero by anything but a reversal',
    await rows(sql`select e.id, t.kind from ledger_entries e
      join ledger_accounts a on a.id = e.ledger_account_id and a.kind = 'user'
      join ledger_transactions t on t.id = e.transaction_id
      where e.amount < 0 and e.balance_after < 0 and t.kind not in ('refund', 'chargeback')`),
  );
  report(
    'load reversed beyond its amount, or a reversal without its credited load',
    await rows(sql`select p.id, p.amount, -sum(${userSideOf('t')})::bigint as reversed from ledger_transactions t
      left join payments p on p.id = t.payment_id
      where t.kind in ('refund', 'chargeback')
      group by p.id, p.amount, p.status
      having p.id is null or p.status <> 'succeeded' or -sum(${userSideOf('t')}) > p.amount`),
  );
  // The user's side of a transaction: what it moved on the advertiser's own account.
  const userSide = sql`(select coalesce(sum(e.amount), 0) from ledger_entries e
      join ledger_accounts a on a.id = e.ledger_account_id and a.kind = 'user' where e.transaction_id = t.id)`;
  report(
    'order paid without exactly one purchase of its total',
    await rows(sql`select o.id, o.status, o.total, count(t.id)::int as purchases, sum(${userSide})::bigint as debited
      from orders o left join ledger_transactions t on t.order_id = o.id and t.kind in ('purchase', 'auto_topup')
      group by o.id
      having (o.status = 'paid') <> (count(t.id) = 1) or count(t.id) > 1
        or (count(t.id) = 1 and sum(${userSide}) <> -o.total)`),
  );
  report(
    'payment succeeded without exactly one load of its amount',
    await rows(sql`select p.id, p.status, p.amount, count(t.id)::int as loads, sum(${userSide})::bigint as credited
      from payments p left join ledger_transactions t on t.payment_id = p.id and t.kind = 'load'
      group by p.id
      having (p.status = 'succeeded') <> (count(t.id) = 1) or count(t.id) > 1
        or (count(t.id) = 1 and sum(${userSide}) <> p.amount)`),
  );
  report(
    'purchase or load without its order or payment',
    await rows(sql`select t.id, t.kind, t.order_id, t.payment_id from ledger_transactions t
      where (t.kind in ('purchase', 'auto_topup') and not exists (select 1 from orders o where o.id = t.order_id))
         or (t.kind = 'load' and not exists (select 1 from payments p where p.id = t.payment_id))`),
  );
  report(
    'cart item sold twice',
    await rows(sql`select item->>'uid' as uid, count(*)::int as orders
      from orders o, jsonb_array_elements(o.items) item
      where o.status = 'paid' and item->>'productCode' = 'additional_location'
      group by 1 having count(*) > 1`),
  );
  return problems;
}
