// The double-entry ledger (docs/decisions/0401). Only the money module writes ledger_*, and only through
// post(): a transaction's entries sum to zero, the accounts it touches are locked in the one lock order
// of money (lockMoney) before their balances are read, a user balance never goes below zero but through a reversal (checked
// here, by a trigger and by a CHECK constraint that wants the account held then), and each entry records the balance it leaves. Entries are never updated or deleted (a
// trigger refuses it): a correction is a new transaction. Only a reversal (refund, chargeback, decision
// 0423) may take a user below zero, and the account is then held: it spends nothing until released.
import type { Db, Tx } from '../../db/client';
import * as repo from './ledger.repo';

export type SystemAccount = 'cash' | 'revenue' | 'adjustments';
export type LedgerKind = repo.LedgerKind;

/** Kinds that reverse (part of) a load (decision 0423): the only ones that may take a user below zero. */
export const REVERSAL_KINDS: ReadonlySet<LedgerKind> = new Set<LedgerKind>(['refund', 'chargeback']);
/** Kinds that spend credits: refused on a held account. */
const SPENDING_KINDS: ReadonlySet<LedgerKind> = new Set<LedgerKind>(['purchase', 'auto_topup']);

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

/**
 * The account is held (decision 0423: a reversal left it below zero, or a chargeback came): it may not
 * spend. A kind of InsufficientBalance, so every path that refuses a debit refuses this one too.
 */
export class AccountHeld extends InsufficientBalance {
  constructor(balance: number, needed: number) {
    super(balance, needed);
    this.message = `account held: ${needed} not spent`;
    this.name = 'AccountHeld';
  }
}

/** The ledger account of a user (`userId`) or a system account, created on first use. */
async function accountId(tx: Tx, kind: 'user' | SystemAccount, userId: number | null): Promise<number> {
  const found = await repo.findAccount(tx, kind, userId);
  if (found !== undefined) return found;
  // The demo advertisers have none.
  await repo.createAccount(tx, kind, userId);
  return (await repo.findAccount(tx, kind, userId))!;
}

export const balanceOf = (db: Db | Tx, userId: number): Promise<number> => repo.userBalance(db, userId);

/** What a transaction locked with lockMoney: the only accounts it may post to. */
export interface MoneyLock {
  readonly users: ReadonlyMap<number, number>;
  readonly system: ReadonlyMap<SystemAccount, number>;
}

/** A posting to an account its transaction did not lock with lockMoney: a bug, caught before any write. */
export class LockOrderViolation extends Error {
  constructor(what: string) {
    super(`money lock order: ${what} was not locked by lockMoney`);
    this.name = 'LockOrderViolation';
  }
}

/**
 * The one lock order of money (decision 0401). Every transaction that changes money calls this before
 * it reads for update or writes any cart item, order, payment or ledger row:
 *   1. here: the ledger accounts of `users`, ascending id. This is the user's money lock: everything
 *      that changes one advertiser's money (cart edits, orders, payments, settlement, adjustments, bank
 *      transfers) queues here, one at a time;
 *   2. then, in any order, that user's cart items, orders and payments (only ever changed under 1);
 *   3. last, at its first posting, the `system` accounts it declares here, all at once, ascending id.
 * Rows of a caller's own module (an auto-topup run row) come before 1. No two money transactions can
 * then wait on each other in a circle; post() refuses an account that was not locked here.
 */
export async function lockMoney(tx: Tx, users: number[], system: SystemAccount[] = []): Promise<MoneyLock> {
  // Resolved (created on first use) before any lock is held: a first creation waits for nothing of ours.
  const systemIds = new Map<SystemAccount, number>();
  for (const kind of new Set(system)) systemIds.set(kind, await accountId(tx, kind, null));
  const userIds = new Map<number, number>();
  for (const user of new Set(users)) userIds.set(user, await accountId(tx, 'user', user));
  await repo.lockAccountRows(tx, [...userIds.values()]);
  return { users: userIds, system: systemIds };
}

/** Locks every account of `lock` (those held already cost nothing; the system accounts ascending id). */
const lockAccounts = (tx: Tx, lock: MoneyLock) =>
  repo.lockAccountRows(tx, [...lock.users.values(), ...lock.system.values()]);

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

/**
 * Writes one balanced transaction on accounts `lock` holds (step 3 of the lock order takes the system
 * accounts). Throws InsufficientBalance before writing.
 */
export async function post(
  tx: Tx,
  lock: MoneyLock,
  p: Posting,
): Promise<{ transactionId: number; balances: Map<number, number> }> {
  if (p.lines.reduce((sum, l) => sum + l.amount, 0) !== 0) throw new Error('unbalanced ledger transaction');
  if (p.lines.some((l) => !Number.isSafeInteger(l.amount) || l.amount === 0)) throw new Error('bad ledger amount');
  const covered = new Set([...lock.users.values(), ...lock.system.values()]);
  for (const line of p.lines) if (!covered.has(line.account)) throw new LockOrderViolation(`account ${line.account}`);
  const locked = await lockAccounts(tx, lock);
  const balances = new Map<number, number>();
  for (const line of p.lines) {
    const account = locked.get(line.account);
    if (!account) throw new Error(`ledger account ${line.account} does not exist`);
    const after = (balances.get(line.account) ?? account.balance) + line.amount;
    if (account.kind === 'user' && line.amount < 0) {
      if (account.heldSince && SPENDING_KINDS.has(p.kind)) throw new AccountHeld(account.balance, -line.amount);
      // Below zero only through a reversal (a trigger on ledger_entries holds the same rule).
      if (after < 0 && !REVERSAL_KINDS.has(p.kind)) throw new InsufficientBalance(account.balance, -line.amount);
    }
    balances.set(line.account, after);
  }
  const transactionId = await repo.insertTransaction(tx, {
    kind: p.kind,
    idempotencyKey: p.idempotencyKey,
    userId: p.userId,
    paymentId: p.paymentId ?? null,
    orderId: p.orderId ?? null,
    createdBy: p.createdBy ?? null,
    memo: p.memo ?? null,
    createdAt: p.at,
  });
  await repo.insertEntries(
    tx,
    p.lines.map((l) => ({
      transactionId,
      ledgerAccountId: l.account,
      amount: l.amount,
      balanceAfter: balances.get(l.account)!,
      createdAt: p.at,
    })),
  );
  for (const [id, balance] of balances) await repo.setBalance(tx, id, balance);
  return { transactionId, balances };
}

/** An advertiser's credits, or one of the system accounts. */
export type Party = { user: number } | SystemAccount;

function accountOf(lock: MoneyLock, party: Party): number {
  const id = typeof party === 'string' ? lock.system.get(party) : lock.users.get(party.user);
  if (id === undefined)
    throw new LockOrderViolation(typeof party === 'string' ? `the ${party} account` : `user ${party.user}`);
  return id;
}

/** Moves `amount` from one account to the other (a negative amount moves it back): one balanced pair. */
export async function transfer(
  tx: Tx,
  lock: MoneyLock,
  p: Omit<Posting, 'lines'> & { from: Party; to: Party; amount: number },
): Promise<{ transactionId: number; balanceOf: (party: Party) => number }> {
  const { from, to, amount, ...rest } = p;
  const { transactionId, balances } = await post(tx, lock, {
    ...rest,
    lines: [
      { account: accountOf(lock, from), amount: -amount },
      { account: accountOf(lock, to), amount },
    ],
  });
  return { transactionId, balanceOf: (party) => balances.get(accountOf(lock, party))! };
}

export const transactionByKey = repo.transactionByKey;

/** The hold of a user's ledger account, if any (read under the caller's lock when in a transaction). */
export const holdOf = (db: Db | Tx, userId: number) => repo.holdOf(db, userId);

/** Holds the account (under `lock`): no spending until an admin releases it. False when it was held already. */
export async function hold(
  tx: Tx,
  lock: MoneyLock,
  userId: number,
  reason: repo.HoldReason,
  at: Date,
): Promise<boolean> {
  const account = lock.users.get(userId);
  if (account === undefined) throw new LockOrderViolation(`user ${userId}`);
  return repo.setHold(tx, account, reason, at);
}

/** Releases a hold (under `lock`); refused by the database while the balance is below zero. */
export async function release(tx: Tx, lock: MoneyLock, userId: number): Promise<boolean> {
  const account = lock.users.get(userId);
  if (account === undefined) throw new LockOrderViolation(`user ${userId}`);
  return repo.clearHold(tx, account);
}

/**
 * Everything that must hold whatever happened (tests and the admin's health view): each balance equals
 * the sum of its entries and its last entry's balance_after, no user balance is negative, each
 * transaction sums to zero, and all balances together sum to zero. Returns what does not hold.
 */
export async function ledgerProblems(db: Db | Tx): Promise<string[]> {
  const problems: string[] = [];
  const accounts = await repo.accountTotals(db);
  let total = 0;
  for (const a of accounts) {
    const balance = Number(a.balance);
    total += balance;
    if (balance !== Number(a.sum ?? 0)) problems.push(`account ${a.id}: balance ${balance} != entries ${a.sum}`);
    if (a.last !== null && Number(a.last) !== balance)
      problems.push(`account ${a.id}: balance ${balance} != last balance_after ${a.last}`);
  }
  if (total !== 0) problems.push(`balances sum to ${total}, not 0`);
  const unbalanced = await repo.unbalancedTransactions(db);
  for (const t of unbalanced) problems.push(`transaction ${t.id} does not sum to zero`);
  return problems;
}
