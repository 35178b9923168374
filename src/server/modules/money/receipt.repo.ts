// The SQL of a receipt (decision 0422): a payment with its owner's name and the ledger transaction that
// credited it. No ledger row, no receipt: a pending, failed or expired payment credited nothing.
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, ledgerTransactions, payments } from '../../db/schema';

export async function creditedLoad(db: Db | Tx, paymentId: number) {
  const [row] = await db
    .select({
      paymentId: payments.id,
      userId: payments.userId,
      username: accounts.username,
      status: payments.status,
      method: payments.method,
      provider: payments.provider,
      providerRef: payments.providerRef,
      amount: payments.amount,
      currency: payments.currency,
      details: payments.details,
      creditedAt: ledgerTransactions.createdAt,
    })
    .from(payments)
    .innerJoin(accounts, eq(accounts.id, payments.userId))
    .innerJoin(
      ledgerTransactions,
      and(eq(ledgerTransactions.paymentId, payments.id), eq(ledgerTransactions.kind, 'load')),
    )
    .where(eq(payments.id, paymentId))
    .limit(1);
  return row;
}
