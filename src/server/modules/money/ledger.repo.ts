// The ledger's SQL (decision 0401): accounts, transactions, entries and the reads over them. ledger.ts
// holds the rules (lock order, balanced postings, no negative balance) and is the only writer.
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransactions, orders, payments } from '../../db/schema';

export type LedgerKind = (typeof ledgerTransactions.$inferInsert)['kind'];
export type AccountKind = (typeof ledgerAccounts.$inferInsert)['kind'];
export type LedgerTransactionRow = typeof ledgerTransactions.$inferSelect;
export type HoldReason = NonNullable<(typeof ledgerAccounts.$inferSelect)['holdReason']>;
type Conn = Db | Tx;

export async function findAccount(db: Conn, kind: AccountKind, userId: number | null): Promise<number | undefined> {
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.kind, kind),
        userId === null ? isNull(ledgerAccounts.userId) : eq(ledgerAccounts.userId, userId),
      ),
    );
  return row?.id;
}

/** A concurrent first use creates the same row once. */
export async function createAccount(tx: Tx, kind: AccountKind, userId: number | null) {
  await tx.insert(ledgerAccounts).values({ kind, userId }).onConflictDoNothing();
}

/** SELECT ... FOR UPDATE in ascending id order (PostgreSQL locks the rows in the order it returns them). */
export async function lockAccountRows(tx: Tx, ids: number[]) {
  const rows = await tx
    .select({
      id: ledgerAccounts.id,
      kind: ledgerAccounts.kind,
      balance: ledgerAccounts.balance,
      heldSince: ledgerAccounts.heldSince,
    })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, ids))
    .orderBy(asc(ledgerAccounts.id))
    .for('update');
  return new Map(rows.map((r) => [r.id, { kind: r.kind, balance: Number(r.balance), heldSince: r.heldSince }]));
}

export async function insertTransaction(tx: Tx, values: typeof ledgerTransactions.$inferInsert): Promise<number> {
  const [row] = await tx.insert(ledgerTransactions).values(values).returning({ id: ledgerTransactions.id });
  return Number(row.id);
}

export async function insertEntries(tx: Tx, rows: Array<typeof ledgerEntries.$inferInsert>) {
  await tx.insert(ledgerEntries).values(rows);
}

export async function setBalance(tx: Tx, accountId: number, balance: number) {
  await tx.update(ledgerAccounts).set({ balance }).where(eq(ledgerAccounts.id, accountId));
}

export async function userBalance(db: Conn, userId: number): Promise<number> {
  const [row] = await db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, 'user'), eq(ledgerAccounts.userId, userId)));
  return Number(row?.balance ?? 0);
}

export async function holdOf(db: Conn, userId: number) {
  const [row] = await db
    .select({ since: ledgerAccounts.heldSince, reason: ledgerAccounts.holdReason, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(ofUser(userId));
  return row?.since && row.reason ? { since: row.since, reason: row.reason, balance: Number(row.balance) } : null;
}

/** Sets the hold unless one is set (a first reason stays); true when it was set now. */
export async function setHold(tx: Tx, accountId: number, reason: HoldReason, at: Date): Promise<boolean> {
  const rows = await tx
    .update(ledgerAccounts)
    .set({ heldSince: at, holdReason: reason })
    .where(and(eq(ledgerAccounts.id, accountId), isNull(ledgerAccounts.heldSince)))
    .returning({ id: ledgerAccounts.id });
  return rows.length > 0;
}

export async function clearHold(tx: Tx, accountId: number): Promise<boolean> {
  const rows = await tx
    .update(ledgerAccounts)
    .set({ heldSince: null, holdReason: null })
    .where(and(eq(ledgerAccounts.id, accountId), isNotNull(ledgerAccounts.heldSince)))
    .returning({ id: ledgerAccounts.id });
  return rows.length > 0;
}

/** Held advertiser accounts, longest held first (the admin's queue). */
export const heldAccounts = (db: Conn, limit: number) =>
  db
    .select({
      userId: ledgerAccounts.userId,
      balance: ledgerAccounts.balance,
      since: ledgerAccounts.heldSince,
      reason: ledgerAccounts.holdReason,
    })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, 'user'), isNotNull(ledgerAccounts.heldSince)))
    .orderBy(asc(ledgerAccounts.heldSince), asc(ledgerAccounts.id))
    .limit(limit);

/** What was reversed (refunds and chargebacks, or only `kind`) of a payment's load so far, minor units. */
export async function reversedOf(db: Conn, paymentId: number, kind?: 'refund' | 'chargeback'): Promise<number> {
  const kinds = kind ? sql`(${kind})` : sql`('refund', 'chargeback')`;
  const rows = await queryRows<{ reversed: string | null }>(
    db,
    sql`select coalesce(sum(e.amount), 0)::bigint::text as reversed from ledger_transactions t
        join ledger_entries e on e.transaction_id = t.id
        join ledger_accounts a on a.id = e.ledger_account_id and a.kind = 'user'
        where t.payment_id = ${paymentId} and t.kind in ${kinds}`,
  );
  return -Number(rows[0]?.reversed ?? 0);
}

export async function transactionByKey(db: Conn, key: string): Promise<LedgerTransactionRow | null> {
  const [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.idempotencyKey, key));
  return row ?? null;
}

/** Each account's balance, the sum of its entries and its last entry's balance_after. */
export const accountTotals = (db: Conn) =>
  queryRows<{ id: number; balance: string; sum: string | null; last: string | null }>(
    db,
    sql`select a.id, a.balance, (select sum(e.amount) from ledger_entries e where e.ledger_account_id = a.id) as sum,
          (select e.balance_after from ledger_entries e where e.ledger_account_id = a.id order by e.id desc limit 1) as last
        from ledger_accounts a`,
  );

export const unbalancedTransactions = (db: Conn) =>
  queryRows<{ id: number }>(
    db,
    sql`select transaction_id as id from ledger_entries group by transaction_id having sum(amount) <> 0`,
  );

const ofUser = (userId: number) => and(eq(ledgerAccounts.kind, 'user'), eq(ledgerAccounts.userId, userId));

/** The user's statement lines, newest first, with the order or payment each belongs to. */
export function statementRows(db: Conn, userId: number, limit: number, offset: number) {
  return db
    .select({
      id: ledgerEntries.id,
      amount: ledgerEntries.amount,
      balanceAfter: ledgerEntries.balanceAfter,
      createdAt: ledgerEntries.createdAt,
      kind: ledgerTransactions.kind,
      memo: ledgerTransactions.memo,
      orderId: ledgerTransactions.orderId,
      items: orders.items,
      paymentId: payments.id,
      method: payments.method,
      providerRef: payments.providerRef,
      details: payments.details,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.ledgerAccountId))
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .leftJoin(orders, eq(orders.id, ledgerTransactions.orderId))
    .leftJoin(payments, eq(payments.id, ledgerTransactions.paymentId))
    .where(ofUser(userId))
    .orderBy(desc(ledgerEntries.id))
    .limit(limit)
    .offset(offset);
}

export async function statementCount(db: Conn, userId: number): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.ledgerAccountId))
    .where(ofUser(userId));
  return n;
}

/** Credits loaded and spent on advertisers' accounts per UTC day in [from, until). */
export const dailyFlowRows = (db: Conn, from: Date, until: Date) =>
  queryRows<{ day: string; loaded: string; spent: string }>(
    db,
    sql`select to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
          coalesce(sum(e.amount) filter (where t.kind = 'load'), 0)::bigint::text as loaded,
          coalesce(-sum(e.amount) filter (where t.kind in ('purchase', 'auto_topup')), 0)::bigint::text as spent
        from ledger_entries e
        join ledger_accounts a on a.id = e.ledger_account_id and a.kind = 'user'
        join ledger_transactions t on t.id = e.transaction_id
        where e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${until.toISOString()}::timestamptz
        group by 1`,
  );
