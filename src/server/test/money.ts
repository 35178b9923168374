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
 * but a held one, and only a reversal takes it there; no load reversed beyond its amount but by the
 * excess flagged for an admin (decision 0423); every refund the provider made is a refund in our ledger,
 * per payment (the sandbox's own record, and `providerRefunds` a stand-in kept); a refund intent is booked
 * exactly when its ledger refund exists, of its amount; an order is paid exactly when it has one purchase
 * transaction, of its total; a payment succeeded exactly when it has one load transaction, of its amount;
 * no purchase or load without its order or payment; no cart item (an additional location) sold by two
 * paid orders.
 */
export interface ProviderRefund {
  provider: string;
  /** The provider's id of the payment (payments.provider_ref): a charge, an invoice, a sale. */
  ref: string;
  /** Minor units. */
  amount: number;
}

const userSideOf = (alias: string) =>
  sql.raw(`(select coalesce(sum(e.amount), 0) from ledger_entries e
      join ledger_accounts a on a.id = e.ledger_account_id and a.kind = 'user' where e.transaction_id = ${alias}.id)`);

export async function moneyProblems(db: Db, opts: { providerRefunds?: ProviderRefund[] } = {}): Promise<string[]> {
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
    'a reversal without its credited load',
    await rows(sql`select t.id, t.payment_id from ledger_transactions t left join payments p on p.id = t.payment_id
      where t.kind in ('refund', 'chargeback') and (p.id is null or p.status <> 'succeeded')`),
  );
  // Beyond the load only by the excess flagged (decision 0423): reversed - amount, when above it, is what
  // the payment's flags say, and a flag names one of its reversals.
  report(
    'load reversed beyond its amount but by the excess flagged',
    await rows(sql`select p.id, p.amount, coalesce(r.reversed, 0) as reversed, coalesce(f.excess, 0) as flagged
      from payments p
      left join (select t.payment_id, -sum(${userSideOf('t')})::bigint as reversed from ledger_transactions t
        where t.kind in ('refund', 'chargeback') group by t.payment_id) r on r.payment_id = p.id
      left join (select payment_id, sum(excess)::bigint as excess from reversal_flags group by payment_id) f
        on f.payment_id = p.id
      where greatest(coalesce(r.reversed, 0) - p.amount, 0) <> coalesce(f.excess, 0)`),
  );
  report(
    'flag on anything but a reversal of its payment',
    await rows(sql`select f.id from reversal_flags f left join ledger_transactions t on t.id = f.transaction_id
      where t.kind not in ('refund', 'chargeback') or t.payment_id <> f.payment_id or t.user_id <> f.user_id`),
  );
  // A refund intent is booked exactly when the ledger has its refund, of its amount.
  report(
    'refund intent and ledger disagree',
    await rows(sql`select i.id, i.key, i.status, i.amount, t.kind, -${userSideOf('t')} as booked
      from refund_intents i left join ledger_transactions t on t.idempotency_key = i.key
      where (i.status = 'booked') <> (t.id is not null)
        or (t.id is not null and (t.kind <> 'refund' or t.payment_id <> i.payment_id or -${userSideOf('t')} <> i.amount))`),
  );
  // What the providers refunded is what the ledger refunded, per payment: the sandbox's own table, and
  // what a stand-in recorded (BTCPay's pull payments, Verotel's credits).
  const refunded = new Map<string, number>();
  for (const r of await rows(sql`select 'sandbox' as provider, payment_ref as ref, sum(amount)::bigint as amount
      from sandbox_refunds group by payment_ref`))
    refunded.set(`sandbox ${String(r.ref)}`, Number(r.amount));
  for (const r of opts.providerRefunds ?? [])
    refunded.set(`${r.provider} ${r.ref}`, (refunded.get(`${r.provider} ${r.ref}`) ?? 0) + r.amount);
  const providersChecked = new Set(['sandbox', ...(opts.providerRefunds ?? []).map((r) => r.provider)]);
  const booked =
    await rows(sql`select p.id, p.provider, p.provider_ref as ref, -sum(${userSideOf('t')})::bigint as amount
      from ledger_transactions t join payments p on p.id = t.payment_id
      where t.kind = 'refund' and t.idempotency_key not like 'refund:hand:%' group by p.id`);
  const seen = new Set<string>();
  for (const b of booked) {
    const at = `${String(b.provider)} ${String(b.ref)}`;
    if (!providersChecked.has(String(b.provider))) continue;
    seen.add(at);
    if ((refunded.get(at) ?? 0) !== Number(b.amount))
      problems.push(
        `provider refunds != ledger refunds: ${JSON.stringify({ ...b, provider_refunded: refunded.get(at) ?? 0 })}`,
      );
  }
  for (const [at, amount] of refunded)
    if (!seen.has(at)) problems.push(`provider refunds != ledger refunds: ${at} refunded ${amount}, booked 0`);
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
