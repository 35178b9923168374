// The double-entry ledger (docs/decisions/0401). Only the money module writes ledger_*, and only through
// post(): a transaction's entries sum to zero, the accounts it touches are locked in ascending id order
// before their balances are read, a user balance never goes below zero (checked here and by a CHECK
// constraint), and each entry records the balance it leaves. Entries are never updated or deleted (a
// trigger refuses it): a correction is a new transaction.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema';

export type SystemAccount = 'cash' | 'revenue' | 'adjustments';
export type LedgerKind = (typeof ledgerTransactions.$inferInsert)['kind'];

/** A user's balance does not cover a debit: nothing was written. */
export class InsufficientBalance extends Error {
  constructor(
    readonly balance: number,
    readonly needed: number,
  ) {
    super(`balance ${balance} does not cover ${needed}`);
    this.name = 'InsufficientBalance';
  }
}

/** The user's ledger account, created on first use (the demo advertisers have none). */
export async function userAccountId(tx: Tx, userId: number): Promise<number> {
  await tx.insert(ledgerAccounts).values({ kind: 'user', userId }).onConflictDoNothing();
  const [row] = await tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, 'user'), eq(ledgerAccounts.userId, userId)));
  return row.id;
}

export async function systemAccountId(tx: Tx, kind: SystemAccount): Promise<number> {
  await tx.insert(ledgerAccounts).values({ kind }).onConflictDoNothing();
  const [row] = await tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, kind), isNull(ledgerAccounts.userId)));
  return row.id;
}

export async function balanceOf(db: Db | Tx, userId: number): Promise<number> {
  const [row] = await db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, 'user'), eq(ledgerAccounts.userId, userId)));
  return Number(row?.balance ?? 0);
}

/** Locks the accounts (ascending id: one order for every transaction, so none waits in a circle). */
export async function lockAccounts(tx: Tx, ids: number[]) {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const rows = await tx
    .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, unique))
    .orderBy(asc(ledgerAccounts.id))
    .for('update');
  return new Map(rows.map((r) => [r.id, { kind: r.kind, balance: Number(r.balance) }]));
}

export interface Posting {
  kind: LedgerKind;
  /** What this transaction stands for, once (`order:12`, `payment:7`, `adjust:3:<key>`). */
  idempotencyKey: string;
  userId: number;
  paymentId?: number | null;
  orderId?: number | null;
  createdBy?: number | null;
  memo?: string | null;
  at: Date;
  lines: Array<{ account: number; amount: number }>;
}

/** Writes one balanced transaction. Locks its accounts itself; throws InsufficientBalance before writing. */
export async function post(tx: Tx, p: Posting): Promise<{ transactionId: number; balances: Map<number, number> }> {
  if (p.lines.reduce((sum, l) => sum + l.amount, 0) !== 0) throw new Error('unbalanced ledger transaction');
  if (p.lines.some((l) => !Number.isSafeInteger(l.amount) || l.amount === 0)) throw new Error('bad ledger amount');
  const locked = await lockAccounts(
    tx,
    p.lines.map((l) => l.account),
  );
  const balances = new Map<number, number>();
  for (const line of p.lines) {
    const account = locked.get(line.account);
    if (!account) throw new Error(`ledger account ${line.account} does not exist`);
    const after = (balances.get(line.account) ?? account.balance) + line.amount;
    if (account.kind === 'user' && after < 0) throw new InsufficientBalance(account.balance, -line.amount);
    balances.set(line.account, after);
  }
  const [txn] = await tx
    .insert(ledgerTransactions)
    .values({
      kind: p.kind,
      idempotencyKey: p.idempotencyKey,
      userId: p.userId,
      paymentId: p.paymentId ?? null,
      orderId: p.orderId ?? null,
      createdBy: p.createdBy ?? null,
      memo: p.memo ?? null,
      createdAt: p.at,
    })
    .returning({ id: ledgerTransactions.id });
  await tx.insert(ledgerEntries).values(
    p.lines.map((l) => ({
      transactionId: txn.id,
      ledgerAccountId: l.account,
      amount: l.amount,
      balanceAfter: balances.get(l.account)!,
      createdAt: p.at,
    })),
  );
  for (const [id, balance] of balances) {
    await tx.update(ledgerAccounts).set({ balance }).where(eq(ledgerAccounts.id, id));
  }
  return { transactionId: Number(txn.id), balances };
}

/** An advertiser's credits, or one of the system accounts. */
export type Party = { user: number } | SystemAccount;

const accountOf = (tx: Tx, party: Party) =>
  typeof party === 'string' ? systemAccountId(tx, party) : userAccountId(tx, party.user);

/** Moves `amount` from one account to the other (a negative amount moves it back): one balanced pair. */
export async function transfer(
  tx: Tx,
  p: Omit<Posting, 'lines'> & { from: Party; to: Party; amount: number },
): Promise<{ transactionId: number; balanceOf: (party: Party) => Promise<number> }> {
  const { from, to, amount, ...rest } = p;
  const [fromId, toId] = [await accountOf(tx, from), await accountOf(tx, to)];
  const { transactionId, balances } = await post(tx, {
    ...rest,
    lines: [
      { account: fromId, amount: -amount },
      { account: toId, amount },
    ],
  });
  return { transactionId, balanceOf: async (party) => balances.get(await accountOf(tx, party))! };
}

export async function transactionByKey(db: Db | Tx, key: string) {
  const [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.idempotencyKey, key));
  return row ?? null;
}

/**
 * Everything that must hold whatever happened (tests and the admin's health view): each balance equals
 * the sum of its entries and its last entry's balance_after, no user balance is negative, each
 * transaction sums to zero, and all balances together sum to zero. Returns what does not hold.
 */
export async function ledgerProblems(db: Db | Tx): Promise<string[]> {
  const problems: string[] = [];
  const accounts = await queryRows<{ id: number; balance: string; sum: string | null; last: string | null }>(
    db,
    sql`select a.id, a.balance, (select sum(e.amount) from ledger_entries e where e.ledger_account_id = a.id) as sum,
          (select e.balance_after from ledger_entries e where e.ledger_account_id = a.id order by e.id desc limit 1) as last
        from ledger_accounts a`,
  );
  let total = 0;
  for (const a of accounts) {
    const balance = Number(a.balance);
    total += balance;
    if (balance !== Number(a.sum ?? 0)) problems.push(`account ${a.id}: balance ${balance} != entries ${a.sum}`);
    if (a.last !== null && Number(a.last) !== balance)
      problems.push(`account ${a.id}: balance ${balance} != last balance_after ${a.last}`);
  }
  if (total !== 0) problems.push(`balances sum to ${total}, not 0`);
  const unbalanced = await queryRows<{ id: number }>(
    db,
    sql`select transaction_id as id from ledger_entries group by transaction_id having sum(amount) <> 0`,
  );
  for (const t of unbalanced) problems.push(`transaction ${t.id} does not sum to zero`);
  return problems;
}
