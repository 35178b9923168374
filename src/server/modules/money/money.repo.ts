// Money's SQL besides the ledger's (ledger.repo.ts): orders, payments, provider events, cart items and
// products. Callers hold the lock order of decision 0401 (lockMoney) before they change any of these.
import { and, asc, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  accounts,
  cartItems,
  orders,
  paymentEvents,
  payments,
  products,
  refundIntents,
  reversalFlags,
  unmatchedNotifications,
  type OrderItem,
} from '../../db/schema';

export type { OrderItem };
export type OrderRow = typeof orders.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type PaymentChange = Partial<typeof payments.$inferInsert>;
export type CartItemRow = typeof cartItems.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
export type RefundIntentRow = typeof refundIntents.$inferSelect;
type Conn = Db | Tx;

// ---------------------------------------------------------------- orders

/** The new order, or undefined when the (account, key) has one already. */
export async function insertOrder(tx: Tx, values: typeof orders.$inferInsert): Promise<OrderRow | undefined> {
  const [row] = await tx.insert(orders).values(values).onConflictDoNothing().returning();
  return row;
}

export async function orderByKey(db: Conn, userId: number, key: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  return row;
}

export async function orderById(db: Conn, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

export async function lockOrder(tx: Tx, id: number): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  return row;
}

export async function markOrderPaid(tx: Tx, id: number, at: Date) {
  await tx.update(orders).set({ status: 'paid', paidAt: at }).where(eq(orders.id, id));
}

export async function linkOrderPayment(tx: Tx, orderId: number, paymentId: number) {
  await tx.update(orders).set({ paymentId }).where(eq(orders.id, orderId));
}

/** Closes the order unpaid (`onlyPending`: unless it was paid or closed already). */
export async function failOrder(tx: Tx, id: number, onlyPending = false) {
  await tx
    .update(orders)
    .set({ status: 'failed' })
    .where(onlyPending ? and(eq(orders.id, id), eq(orders.status, 'pending')) : eq(orders.id, id));
}

// ---------------------------------------------------------------- payments

/** The new payment, or undefined when its unique key (account and client key, or bank id) exists. */
export async function insertPayment(tx: Tx, values: typeof payments.$inferInsert): Promise<PaymentRow | undefined> {
  const [row] = await tx.insert(payments).values(values).onConflictDoNothing().returning();
  return row;
}

export async function paymentByKey(db: Conn, userId: number, key: string): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.idempotencyKey, key)));
  return row;
}

export async function paymentById(db: Conn, id: number): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function lockPayment(tx: Tx, id: number): Promise<PaymentRow> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
  return row;
}

export async function updatePayment(tx: Tx, id: number, change: PaymentChange) {
  await tx.update(payments).set(change).where(eq(payments.id, id));
}

/** Open card and crypto payments, oldest first. */
export function openPayments(db: Conn, limit: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(inArray(payments.status, ['pending', 'requires_action']), inArray(payments.method, ['card', 'crypto'])))
    .orderBy(asc(payments.id))
    .limit(limit);
}

/** The payment a provider's event names: by our id (with its provider and method), else by its reference. */
export async function paymentOfEvent(
  db: Conn,
  provider: { name: string; method: 'card' | 'crypto' },
  event: { paymentId?: number | null; ref?: string | null },
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(
      event.paymentId
        ? and(
            eq(payments.id, event.paymentId),
            eq(payments.provider, provider.name),
            eq(payments.method, provider.method),
          )
        : and(eq(payments.provider, provider.name), eq(payments.providerRef, event.ref ?? '')),
    );
  return row;
}

export async function bankPayment(db: Conn, bankTransactionId: string): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, 'bank'), eq(payments.providerRef, bankTransactionId)));
  return row;
}

// ---------------------------------------------------------------- provider events

/** Records the event once: false when (provider, event id) was recorded before. */
export async function recordEvent(db: Conn, values: typeof paymentEvents.$inferInsert): Promise<boolean> {
  const rows = await db.insert(paymentEvents).values(values).onConflictDoNothing().returning({ id: paymentEvents.id });
  return rows.length > 0;
}

export async function setEventOutcome(tx: Tx, provider: string, eventId: string, outcome: string) {
  await tx
    .update(paymentEvents)
    .set({ outcome })
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
}

export async function eventSeen(db: Conn, provider: string, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
  return !!row;
}

/**
 * A signed notification that names a payment we do not have (decisions 0420, 0423): kept for an admin,
 * once per (provider, event id, reference); a redelivery counts up its deliveries.
 */
export async function recordUnmatched(
  db: Conn,
  values: { provider: string; eventId: string; type: string; reference: string; amount: number | null; at: Date },
) {
  const { at, ...rest } = values;
  await db
    .insert(unmatchedNotifications)
    .values({ ...rest, receivedAt: at, lastReceivedAt: at })
    .onConflictDoUpdate({
      target: [unmatchedNotifications.provider, unmatchedNotifications.eventId, unmatchedNotifications.reference],
      set: { deliveries: sql`${unmatchedNotifications.deliveries} + 1`, lastReceivedAt: at },
    });
}

/** Unmatched notifications whose event was not applied since (by a delivery naming the right payment), newest first. */
export const openUnmatched = (db: Conn, limit: number) =>
  db
    .select()
    .from(unmatchedNotifications)
    .where(
      sql`not exists (select 1 from ${paymentEvents} e where e.provider = ${unmatchedNotifications.provider}
        and e.event_id = ${unmatchedNotifications.eventId})`,
    )
    .orderBy(desc(unmatchedNotifications.lastReceivedAt), desc(unmatchedNotifications.id))
    .limit(limit);

// ---------------------------------------------------------------- refund intents (decision 0423)

export async function insertIntent(tx: Tx, values: typeof refundIntents.$inferInsert): Promise<RefundIntentRow> {
  const [row] = await tx.insert(refundIntents).values(values).returning();
  return row;
}

export async function intentByKey(db: Conn, key: string): Promise<RefundIntentRow | undefined> {
  const [row] = await db.select().from(refundIntents).where(eq(refundIntents.key, key));
  return row;
}

export async function intentById(db: Conn, id: number): Promise<RefundIntentRow | undefined> {
  const [row] = await db.select().from(refundIntents).where(eq(refundIntents.id, id));
  return row;
}

export async function updateIntent(tx: Tx, id: number, change: Partial<typeof refundIntents.$inferInsert>) {
  const [row] = await tx.update(refundIntents).set(change).where(eq(refundIntents.id, id)).returning();
  return row;
}

/** Changes a pending intent only (false: it was booked or cancelled meanwhile). */
export async function updatePendingIntent(tx: Tx, id: number, change: Partial<typeof refundIntents.$inferInsert>) {
  const rows = await tx
    .update(refundIntents)
    .set(change)
    .where(and(eq(refundIntents.id, id), eq(refundIntents.status, 'pending')))
    .returning({ id: refundIntents.id });
  return rows.length > 0;
}

/** What pending refund intents of a payment hold back, minor units. */
export async function pendingRefundsOf(db: Conn, paymentId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<string | null>`sum(${refundIntents.amount})::bigint::text` })
    .from(refundIntents)
    .where(and(eq(refundIntents.paymentId, paymentId), eq(refundIntents.status, 'pending')));
  return Number(row?.n ?? 0);
}

/** Pending intents last tried before `before`, oldest first (the settlement retries them by their key). */
export const staleIntents = (db: Conn, before: Date, limit: number) =>
  db
    .select()
    .from(refundIntents)
    .where(and(eq(refundIntents.status, 'pending'), lt(refundIntents.attemptedAt, before)))
    .orderBy(asc(refundIntents.attemptedAt), asc(refundIntents.id))
    .limit(limit);

// ---------------------------------------------------------------- reversals beyond the load (decision 0423)

export async function insertFlag(tx: Tx, values: typeof reversalFlags.$inferInsert) {
  await tx.insert(reversalFlags).values(values);
}

/** What was charged beyond loads and not yet looked at by an admin, per user. */
export async function openExcessOf(db: Conn, userIds: number[]): Promise<Map<number, number>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .select({ userId: reversalFlags.userId, excess: sql<string>`sum(${reversalFlags.excess})::bigint::text` })
    .from(reversalFlags)
    .where(and(isNull(reversalFlags.resolvedAt), inArray(reversalFlags.userId, userIds)))
    .groupBy(reversalFlags.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.excess)]));
}

/** An admin looked (released the hold): the user's open flags are resolved; what they came to. */
export async function resolveFlags(tx: Tx, userId: number, by: number, at: Date): Promise<number> {
  const rows = await tx
    .update(reversalFlags)
    .set({ resolvedAt: at, resolvedBy: by })
    .where(and(eq(reversalFlags.userId, userId), isNull(reversalFlags.resolvedAt)))
    .returning({ excess: reversalFlags.excess });
  return rows.reduce((sum, r) => sum + r.excess, 0);
}

export async function accountExists(db: Conn, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, userId));
  return !!row;
}

// ---------------------------------------------------------------- cart items

export function cartRows(db: Conn, userId: number): Promise<CartItemRow[]> {
  return db
    .select()
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.uid));
}

export async function cartCount(db: Conn, userId: number): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(cartItems).where(eq(cartItems.userId, userId));
  return n;
}

/** Adds the item (an item with its uid there already stays as it is). */
export async function insertCartItem(tx: Tx, item: typeof cartItems.$inferInsert) {
  await tx.insert(cartItems).values(item).onConflictDoNothing();
}

/** Deletes the user's items among `uids`; returns how many were there. */
export async function deleteCartItems(tx: Tx, userId: number, uids: string[]): Promise<number> {
  const gone = await tx
    .delete(cartItems)
    .where(and(eq(cartItems.userId, userId), inArray(cartItems.uid, uids)))
    .returning({ uid: cartItems.uid });
  return gone.length;
}

// ---------------------------------------------------------------- products

export async function insertProductsIfMissing(db: Conn, rows: Array<typeof products.$inferInsert>) {
  await db.insert(products).values(rows).onConflictDoNothing();
}

export function allProducts(db: Conn): Promise<ProductRow[]> {
  return db.select().from(products).orderBy(asc(products.id));
}

export async function lockProduct(tx: Tx, code: ProductRow['code']): Promise<ProductRow | undefined> {
  const [row] = await tx.select().from(products).where(eq(products.code, code)).for('update');
  return row;
}

export async function updateProductRow(
  tx: Tx,
  code: ProductRow['code'],
  change: Partial<typeof products.$inferInsert>,
): Promise<ProductRow | undefined> {
  const [row] = await tx.update(products).set(change).where(eq(products.code, code)).returning();
  return row;
}
