// The sandbox provider's queries (decision 0953): its own tables (sandbox_*), read and written only here.
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { sandboxCardTokens, sandboxCharges, sandboxInvoices, sandboxRefunds } from '../../db/schema';

type Conn = Db | Tx;
export type TokenRow = typeof sandboxCardTokens.$inferSelect;
export type ChargeRow = typeof sandboxCharges.$inferSelect;
export type InvoiceRow = typeof sandboxInvoices.$inferSelect;

export async function insertToken(db: Conn, values: typeof sandboxCardTokens.$inferInsert): Promise<TokenRow> {
  const [row] = await db.insert(sandboxCardTokens).values(values).returning();
  return row;
}

export async function tokenById(db: Conn, id: string): Promise<TokenRow | undefined> {
  const [row] = await db.select().from(sandboxCardTokens).where(eq(sandboxCardTokens.id, id));
  return row;
}

export async function last4OfToken(db: Conn, id: string): Promise<string | null> {
  const [row] = await db
    .select({ last4: sandboxCardTokens.last4 })
    .from(sandboxCardTokens)
    .where(eq(sandboxCardTokens.id, id));
  return row?.last4 ?? null;
}

/** A charge; a second one with the same idempotency key is not made. */
export async function insertCharge(db: Conn, values: typeof sandboxCharges.$inferInsert): Promise<void> {
  await db.insert(sandboxCharges).values(values).onConflictDoNothing();
}

export async function chargeByKey(db: Conn, idempotencyKey: string): Promise<ChargeRow | undefined> {
  const [row] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, idempotencyKey));
  return row;
}

export async function chargeById(db: Conn, id: string): Promise<ChargeRow | undefined> {
  const [row] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.id, id));
  return row;
}

export async function updateCharge(
  db: Conn,
  id: string,
  set: Partial<Pick<ChargeRow, 'status' | 'failureCode' | 'updatedAt'>>,
): Promise<ChargeRow> {
  const [row] = await db.update(sandboxCharges).set(set).where(eq(sandboxCharges.id, id)).returning();
  return row;
}

/** A hosted charge's notification is sent (a held one is released). */
export async function markNotified(db: Conn, id: string, at: Date): Promise<void> {
  await db.update(sandboxCharges).set({ notificationHeld: false, notifiedAt: at }).where(eq(sandboxCharges.id, id));
}

/** An invoice; a second one for the same order is not made. */
export async function insertInvoice(db: Conn, values: typeof sandboxInvoices.$inferInsert): Promise<void> {
  await db.insert(sandboxInvoices).values(values).onConflictDoNothing();
}

export async function invoiceByOrder(db: Conn, orderId: string): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(sandboxInvoices).where(eq(sandboxInvoices.orderId, orderId));
  return row;
}

export async function invoiceById(db: Conn, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(sandboxInvoices).where(eq(sandboxInvoices.id, id));
  return row;
}

export async function settleInvoice(db: Conn, id: string): Promise<void> {
  await db.update(sandboxInvoices).set({ status: 'settled' }).where(eq(sandboxInvoices.id, id));
}

// ---------------------------------------------------------------- refunds

export type RefundRow = typeof sandboxRefunds.$inferSelect;

export async function refundByKey(db: Conn, key: string): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.idempotencyKey, key));
  return row;
}

/** Serialises the refunds of one charge or invoice until the transaction ends. */
export async function lockRefundsOf(tx: Tx, paymentRef: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sandbox-refund:${paymentRef}`}))`);
}

/** What was refunded of a charge or invoice so far. */
export async function refundedOf(db: Conn, paymentRef: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${sandboxRefunds.amount}), 0)::text` })
    .from(sandboxRefunds)
    .where(eq(sandboxRefunds.paymentRef, paymentRef));
  return Number(row?.total ?? 0);
}

/** A refund; a second one with the same key is not made. */
export async function insertRefund(db: Conn, values: typeof sandboxRefunds.$inferInsert): Promise<void> {
  await db.insert(sandboxRefunds).values(values).onConflictDoNothing();
}
