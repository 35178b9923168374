// Orders, loads and their settlement (docs/decisions/0401, 0400). Exactly once, whatever retries, races
// and crashes happen:
// - an order and a payment are unique per (account, client key): a retried call finds them and resumes;
// - the intent (order + pending payment) is committed before the provider is called, and the provider is
//   called with a key derived from our payment id, so a repeated call answers the first charge;
// - a payment is settled under its row lock, and its ledger transaction is unique per payment
//   (`payment:<id>`), an order's per order (`order:<id>`); a cart item is consumed by the order that pays it;
// - what a crash leaves pending is settled by settleOpenPayments (on start and every minute), which asks
//   the provider for the truth.
import crypto from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { msg, type Message } from '#shared/api/messages.ts';
import type { MakePaymentBody, OrderView, PaymentResult, PaymentView, ProductCode } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { cartItems, orders, paymentEvents, payments, type OrderItem } from '../../db/schema';
import { AppError, notFound, ValidationError } from '../../lib/errors';
import { publicBase } from '../auth/emails';
import { addAdditionalListing, bumpProfile, positionOf } from '../listings/listings.service';
import { assertListed, cartLines, getCart, summarize } from './cart';
import { atomically } from './atomic';
import { faultPoint, pausePoint } from './fault';
import { balanceOf, InsufficientBalance, lockMoney, transactionByKey, transfer, type MoneyLock } from './ledger';
import { productByCode } from './products';
import { providers } from './providers';
import { providerKey, ProviderUnavailable, WebhookRejected, type ProviderState } from './providers/provider';

type OrderRow = typeof orders.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

/** The cart an order was made from lost an item meanwhile (bought by a parallel order, or removed). */
export class CartChanged extends Error {}

const providerUnavailable = () => new AppError(503, 'provider_unavailable', msg('money.providerUnavailable'));

// ---------------------------------------------------------------- paying an order from the balance

/** Debits the order from the balance and delivers what it bought, in the caller's transaction. */
async function payOrder(ctx: AppContext, tx: Tx, lock: MoneyLock, order: OrderRow, fromCart: boolean): Promise<number> {
  const now = ctx.now();
  if (fromCart) {
    const uids = order.items.map((i) => i.uid);
    const consumed = await tx
      .delete(cartItems)
      .where(and(eq(cartItems.userId, order.userId), inArray(cartItems.uid, uids)))
      .returning({ uid: cartItems.uid });
    if (consumed.length !== uids.length) throw new CartChanged();
    await pausePoint(ctx, 'order_cart_consumed');
  }
  const { transactionId } = await transfer(tx, lock, {
    kind: order.source === 'auto_topup' ? 'auto_topup' : 'purchase',
    idempotencyKey: `order:${order.id}`,
    userId: order.userId,
    orderId: order.id,
    at: now,
    from: { user: order.userId },
    to: 'revenue',
    amount: order.total,
  });
  for (const item of order.items) {
    if (item.productCode === 'standard_topup') await bumpProfile(tx, order.userId, now);
    else
      await addAdditionalListing(tx, {
        profileId: order.userId,
        cityId: Number(item.params.cityId),
        days: Number(item.params.days),
        from: item.params.from ?? null,
        until: item.params.until ?? null,
        now,
      });
  }
  await tx.update(orders).set({ status: 'paid', paidAt: now }).where(eq(orders.id, order.id));
  return transactionId;
}

interface NewOrder {
  userId: number;
  idempotencyKey: string;
  requestHash: string;
  source: 'checkout' | 'auto_topup';
  items: OrderItem[];
  /** The items are the cart's: each is consumed by this order, or the order fails (CartChanged). */
  fromCart: boolean;
}

/**
 * Creates the order and pays it from the balance in one transaction (a savepoint of `outer` when given).
 * Same key again: the first order, untouched. Throws InsufficientBalance or CartChanged having written
 * nothing.
 */
async function createAndPayOrder(ctx: AppContext, input: NewOrder, outer?: Tx) {
  const run = async (tx: Tx) => {
    const lock = await lockMoney(tx, [input.userId], ['revenue']);
    const [order] = await tx
      .insert(orders)
      .values({
        userId: input.userId,
        total: input.items.reduce((sum, i) => sum + i.price, 0),
        items: input.items,
        status: 'pending',
        source: input.source,
        idempotencyKey: input.idempotencyKey,
        requestHash: input.requestHash,
        createdAt: ctx.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!order) {
      const [existing] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.userId, input.userId), eq(orders.idempotencyKey, input.idempotencyKey)));
      return { order: existing, transactionId: null, duplicate: true };
    }
    const transactionId = await payOrder(ctx, tx, lock, order, input.fromCart);
    return { order: { ...order, status: 'paid' as const }, transactionId, duplicate: false };
  };
  return atomically(ctx, run, outer);
}

export interface PurchaseInput {
  userId: number;
  productCode: ProductCode;
  /** Once per key and account, however often it is called. */
  idempotencyKey: string;
  source: 'checkout' | 'auto_topup';
}

/**
 * Buys one product from the balance (the auto-topup's call). Inside `outer` when given, as a savepoint, so
 * the caller's own rows commit with it or not at all. Throws InsufficientBalance having written nothing.
 */
export async function purchase(ctx: AppContext, input: PurchaseInput, outer?: Tx) {
  const product = await productByCode(ctx, input.productCode, outer);
  if (!product.active) throw ValidationError.field('uid', msg('money.productInactive'));
  const { order, transactionId, duplicate } = await createAndPayOrder(
    ctx,
    {
      userId: input.userId,
      idempotencyKey: input.idempotencyKey,
      requestHash: `product:${input.productCode}`,
      source: input.source,
      fromCart: false,
      items: [
        {
          uid: input.productCode,
          productCode: product.code,
          price: product.price,
          params: product.durationDays ? { days: product.durationDays } : {},
        },
      ],
    },
    outer,
  );
  const txn = transactionId ?? (await transactionByKey(outer ?? ctx.db, `order:${order.id}`))?.id ?? null;
  return { orderId: order.id, status: order.status, amount: order.total, transactionId: txn, duplicate };
}

// ---------------------------------------------------------------- makePayment

/** What a key promised: the same key with another method or amount is another request, and refused. */
const requestHash = (body: MakePaymentBody) =>
  crypto
    .createHash('sha256')
    .update(JSON.stringify([body.method, 'amount' in body ? (body.amount ?? null) : null]))
    .digest('hex');

interface Prior {
  order: OrderRow | null;
  payment: PaymentRow | null;
  hash: string;
}

async function findByKey(ctx: AppContext, userId: number, key: string): Promise<Prior | null> {
  const [order] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  if (order) {
    const [payment] = order.paymentId
      ? await ctx.db.select().from(payments).where(eq(payments.id, order.paymentId))
      : [];
    return { order, payment: payment ?? null, hash: order.requestHash };
  }
  const [payment] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.idempotencyKey, key)));
  return payment ? { order: null, payment, hash: String(payment.details.requestHash ?? '') } : null;
}

const returnUrl = (ctx: AppContext, path: string | undefined, paymentId: number) =>
  `${publicBase(ctx)}${path ?? '/checkout/cart'}?payment=${paymentId}`;

export async function makePayment(ctx: AppContext, userId: number, body: MakePaymentBody): Promise<PaymentResult> {
  const hash = requestHash(body);
  const prior = await findByKey(ctx, userId, body.idempotency_key);
  if (prior) return resume(ctx, userId, prior, hash, body);

  const lines = await cartLines(ctx, userId);
  const balance = await balanceOf(ctx.db, userId);
  const total = lines.reduce((sum, l) => sum + l.price, 0);
  const summary = summarize(total, balance, ctx.env.MIN_TOPUP);
  if (body.expected_total !== undefined && body.expected_total !== total)
    throw ValidationError.field('expected_total', msg('money.pricesChanged'));
  if (lines.length) await assertListed(ctx, userId, 'cart');
  const items: OrderItem[] = lines.map(({ uid, productCode, price, params }) => ({ uid, productCode, price, params }));

  const fromBalance = body.method === 'balance' || (lines.length > 0 && summary.amount_to_pay === 0 && !body.amount);
  if (fromBalance) {
    // A parallel call with the same key may have paid (and emptied) the cart since we looked: its answer is ours.
    const refuse = async (field: string, message: Message): Promise<PaymentResult> => {
      const paid = await findByKey(ctx, userId, body.idempotency_key);
      if (paid) return resume(ctx, userId, paid, hash, body);
      throw ValidationError.field(field, message);
    };
    if (!lines.length) return refuse('cart', msg('money.cartEmpty'));
    try {
      const { order } = await createAndPayOrder(ctx, {
        userId,
        idempotencyKey: body.idempotency_key,
        requestHash: hash,
        source: 'checkout',
        items,
        fromCart: true,
      });
      return resume(ctx, userId, { order, payment: null, hash: order.requestHash }, hash, body);
    } catch (err) {
      if (err instanceof InsufficientBalance) return refuse('balance', msg('money.insufficientBalance'));
      if (err instanceof CartChanged) return refuse('cart', msg('money.cartChanged'));
      throw err;
    }
  }

  const method = body.method as 'card' | 'crypto';
  const provider = providers(ctx)[method];
  if (!provider) throw ValidationError.field('method', msg('money.methodUnavailable'));
  const amount = body.amount ?? Math.max(summary.amount_to_pay, ctx.env.MIN_TOPUP);
  if (amount < ctx.env.MIN_TOPUP) throw ValidationError.field('amount', msg('money.amountTooSmall'));
  if (amount < summary.amount_to_pay) throw ValidationError.field('amount', msg('money.amountTooSmallForCart'));

  // The intent is committed before the provider hears of it: whatever happens next, it can be resumed.
  const payment = await atomically(ctx, async (tx) => {
    await lockMoney(tx, [userId]);
    let orderId: number | null = null;
    if (lines.length) {
      const [order] = await tx
        .insert(orders)
        .values({
          userId,
          total,
          items,
          status: 'pending',
          source: 'checkout',
          idempotencyKey: body.idempotency_key,
          requestHash: hash,
          createdAt: ctx.now(),
        })
        .onConflictDoNothing()
        .returning({ id: orders.id });
      if (!order) return null;
      orderId = order.id;
    }
    const [created] = await tx
      .insert(payments)
      .values({
        userId,
        method,
        provider: provider.name,
        amount,
        currency: ctx.env.SITE_CURRENCY,
        status: 'pending',
        idempotencyKey: body.idempotency_key,
        orderId,
        details: {
          requestHash: hash,
          ...(body.method === 'card' ? { cardToken: body.card_token, returnPath: body.return_path ?? null } : {}),
        },
        createdAt: ctx.now(),
        updatedAt: ctx.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!created) {
      // A parallel call with this key won; undo our order and follow theirs.
      if (orderId) throw new ConcurrentKey();
      return null;
    }
    if (orderId) await tx.update(orders).set({ paymentId: created.id }).where(eq(orders.id, orderId));
    return created;
  }).catch((err) => {
    if (err instanceof ConcurrentKey) return null;
    throw err;
  });
  if (!payment) {
    const won = await findByKey(ctx, userId, body.idempotency_key);
    if (!won) throw new Error('idempotency key conflict without a row');
    return resume(ctx, userId, won, hash, body);
  }
  return startAndSettle(ctx, userId, payment, body.method === 'card' ? body.card_token : undefined);
}

class ConcurrentKey extends Error {}

/** Asks the provider to charge or invoice (idempotent on its side), then records what it said. */
async function startAndSettle(ctx: AppContext, userId: number, payment: PaymentRow, cardToken?: string) {
  const provider = providers(ctx).byName(payment.method as 'card' | 'crypto', payment.provider);
  if (!provider) throw ValidationError.field('method', msg('money.methodUnavailable'));
  let state: ProviderState;
  try {
    state = await provider.start({
      paymentId: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      idempotencyKey: providerKey(payment.id),
      cardToken: cardToken ?? (payment.details.cardToken as string | undefined),
      returnUrl: returnUrl(ctx, (payment.details.returnPath as string | null) ?? undefined, payment.id),
    });
  } catch (err) {
    if (err instanceof ProviderUnavailable) throw providerUnavailable();
    throw err;
  }
  faultPoint(ctx, 'after_provider_charge');
  await applyState(ctx, payment.id, state);
  return refusedOrResult(ctx, userId, payment.id);
}

/** A declined card answers 422 (the form shows it by the card); anything else is a result. */
async function refusedOrResult(ctx: AppContext, userId: number, paymentId: number) {
  const result = await resultOf(ctx, userId, { paymentId });
  if (result.status === 'failed' && result.payment?.method === 'card') {
    const [row] = await ctx.db.select({ details: payments.details }).from(payments).where(eq(payments.id, paymentId));
    const invalid = row?.details.failure === 'invalid_token';
    throw ValidationError.field('card_token', msg(invalid ? 'money.cardTokenInvalid' : 'money.cardDeclined'));
  }
  return result;
}

/** A retried call: the same answer as the first one, after asking the provider what became of it. */
async function resume(ctx: AppContext, userId: number, prior: Prior, hash: string, body: MakePaymentBody) {
  if (prior.hash !== hash) throw ValidationError.field('idempotency_key', msg('money.idempotencyConflict'));
  const payment = prior.payment;
  if (payment && (payment.status === 'pending' || payment.status === 'requires_action')) {
    const refreshed = await refresh(ctx, payment);
    if (refreshed === 'never_started')
      return startAndSettle(ctx, userId, payment, body.method === 'card' ? body.card_token : undefined);
  }
  if (payment) return refusedOrResult(ctx, userId, payment.id);
  return resultOf(ctx, userId, { orderId: prior.order!.id });
}

/** Reads the provider's state of an open payment and applies it. */
async function refresh(ctx: AppContext, payment: PaymentRow): Promise<'applied' | 'never_started' | 'unavailable'> {
  const provider = providers(ctx).byName(payment.method as 'card' | 'crypto', payment.provider);
  if (!provider) return 'unavailable';
  let state: ProviderState | null;
  try {
    state = await provider.fetch({ idempotencyKey: providerKey(payment.id), providerRef: payment.providerRef });
  } catch (err) {
    if (err instanceof ProviderUnavailable) return 'unavailable';
    throw err;
  }
  if (!state) return 'never_started';
  await applyState(ctx, payment.id, state);
  return 'applied';
}

// ---------------------------------------------------------------- settlement

type Outcome = 'credited' | 'updated' | 'failed' | 'unchanged' | 'duplicate';

/**
 * Records what the provider says about a payment, exactly once: under the payment's row lock, a success
 * credits the load (ledger key `payment:<id>`) and pays its order from the balance; a failure closes the
 * payment and its order. A settled payment never changes again. With `event`, the provider's event id is
 * recorded in the same transaction (a redelivery then changes nothing).
 */
async function applyState(
  ctx: AppContext,
  paymentId: number,
  state: ProviderState,
  event?: { provider: string; id: string; type: string },
): Promise<Outcome> {
  const now = ctx.now();
  // Who it belongs to and whether it pays an order never change: read before the lock order is entered.
  const [owner] = await ctx.db
    .select({ userId: payments.userId, orderId: payments.orderId })
    .from(payments)
    .where(eq(payments.id, paymentId));
  if (!owner) throw new Error(`payment ${paymentId} does not exist`);
  return atomically(ctx, async (tx) => {
    const lock = await lockMoney(tx, [owner.userId], owner.orderId ? ['cash', 'revenue'] : ['cash']);
    if (event) {
      const [fresh] = await tx
        .insert(paymentEvents)
        .values({
          provider: event.provider,
          eventId: event.id,
          type: event.type,
          paymentId,
          outcome: 'received',
          receivedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      if (!fresh) return 'duplicate';
    }
    const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    const outcome = await applyLocked(ctx, tx, lock, p, state);
    if (event)
      await tx
        .update(paymentEvents)
        .set({ outcome })
        .where(and(eq(paymentEvents.provider, event.provider), eq(paymentEvents.eventId, event.id)));
    return outcome;
  });
}

async function applyLocked(
  ctx: AppContext,
  tx: Tx,
  lock: MoneyLock,
  p: PaymentRow,
  state: ProviderState,
): Promise<Outcome> {
  const now = ctx.now();
  if (p.status === 'succeeded') return 'unchanged';
  const details = {
    ...p.details,
    ...(state.last4 ? { last4: state.last4 } : {}),
    ...(state.invoice ? { invoice: state.invoice } : {}),
    ...(state.redirectUrl ? { redirectUrl: state.redirectUrl } : {}),
    ...(state.failure ? { failure: state.failure } : {}),
  };
  const open = p.status === 'pending' || p.status === 'requires_action';
  if (state.status === 'succeeded') {
    // Crypto can be paid after its invoice expired: money received is credited even then.
    if (state.amount !== undefined && state.amount < p.amount) return 'unchanged';
    await transfer(tx, lock, {
      kind: 'load',
      idempotencyKey: `payment:${p.id}`,
      userId: p.userId,
      paymentId: p.id,
      at: now,
      from: 'cash',
      to: { user: p.userId },
      amount: p.amount,
    });
    await pausePoint(ctx, 'payment_credited');
    await tx
      .update(payments)
      .set({ status: 'succeeded', providerRef: state.ref, details, settledAt: now, updatedAt: now })
      .where(eq(payments.id, p.id));
    if (p.orderId) {
      const [order] = await tx.select().from(orders).where(eq(orders.id, p.orderId)).for('update');
      if (order?.status === 'pending') {
        try {
          await tx.transaction((sp) => payOrder(ctx, sp, lock, order, true));
        } catch (err) {
          // The credits stay on the balance; the order is closed unpaid.
          if (!(err instanceof InsufficientBalance || err instanceof CartChanged)) throw err;
          await tx.update(orders).set({ status: 'failed' }).where(eq(orders.id, order.id));
        }
      }
    }
    return 'credited';
  }
  if (!open) return 'unchanged';
  if (state.status === 'failed' || state.status === 'expired') {
    await tx
      .update(payments)
      .set({ status: state.status, providerRef: state.ref, details, updatedAt: now })
      .where(eq(payments.id, p.id));
    if (p.orderId)
      await tx
        .update(orders)
        .set({ status: 'failed' })
        .where(and(eq(orders.id, p.orderId), eq(orders.status, 'pending')));
    return 'failed';
  }
  await tx
    .update(payments)
    .set({ status: state.status, providerRef: state.ref, details, updatedAt: now })
    .where(eq(payments.id, p.id));
  return 'updated';
}

/** A payment the provider never heard of, long after it was started, was never charged. */
const NEVER_STARTED_AFTER_MS = 15 * 60_000;

/**
 * Periodic task and start-up reconciliation: every open card or crypto payment is settled with the
 * provider's current state. Safe on many instances at once (settlement is exactly once).
 */
export async function settleOpenPayments(ctx: AppContext, limit = 100): Promise<number> {
  const open = await ctx.db
    .select()
    .from(payments)
    .where(and(inArray(payments.status, ['pending', 'requires_action']), inArray(payments.method, ['card', 'crypto'])))
    .orderBy(asc(payments.id))
    .limit(limit);
  let settled = 0;
  for (const p of open) {
    const outcome = await refresh(ctx, p);
    if (outcome === 'never_started' && ctx.now().getTime() - p.createdAt.getTime() > NEVER_STARTED_AFTER_MS) {
      await applyState(ctx, p.id, { status: 'failed', ref: `none_${providerKey(p.id)}`, failure: 'never_started' });
    }
    if (outcome === 'applied') settled += 1;
  }
  return settled;
}

// ---------------------------------------------------------------- webhooks

/**
 * A provider's webhook: the signature is checked over the raw body, the event id makes a redelivery a
 * no-op, and the payment's state is read back from the provider (so late and out-of-order events apply
 * the truth, not the event). Bad signature 401, unreadable 400: nothing is written.
 */
export async function handleWebhook(
  ctx: AppContext,
  providerName: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
) {
  const all = providers(ctx);
  const provider = [all.crypto, all.card].find((p) => p?.name === providerName && p.parseWebhook);
  if (!provider?.parseWebhook) throw notFound();
  let event;
  try {
    event = provider.parseWebhook(rawBody, headers);
  } catch (err) {
    if (err instanceof WebhookRejected)
      throw new AppError(
        err.status,
        'webhook_rejected',
        msg(err.status === 401 ? 'money.badSignature' : 'money.badWebhook'),
      );
    throw err;
  }
  faultPoint(ctx, 'after_webhook_verified');
  const [seen] = await ctx.db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, provider.name), eq(paymentEvents.eventId, event.id)));
  if (seen) return { received: true as const, outcome: 'duplicate' };
  const [payment] = await ctx.db
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
  const record = async (outcome: string) =>
    ctx.db
      .insert(paymentEvents)
      .values({
        provider: provider.name,
        eventId: event.id,
        type: event.type,
        paymentId: payment?.id ?? null,
        outcome,
        receivedAt: ctx.now(),
      })
      .onConflictDoNothing();
  if (!payment || (event.ref && payment.providerRef && payment.providerRef !== event.ref)) {
    await record('ignored');
    return { received: true as const, outcome: 'ignored' };
  }
  let state: ProviderState | null;
  try {
    state = await provider.fetch({
      idempotencyKey: providerKey(payment.id),
      providerRef: payment.providerRef ?? event.ref,
    });
  } catch (err) {
    // Unknown now: the provider redelivers later.
    if (err instanceof ProviderUnavailable) throw providerUnavailable();
    throw err;
  }
  if (!state) {
    await record('ignored');
    return { received: true as const, outcome: 'ignored' };
  }
  const outcome = await applyState(ctx, payment.id, state, { provider: provider.name, id: event.id, type: event.type });
  return { received: true as const, outcome };
}

// ---------------------------------------------------------------- results

function presentOrder(o: OrderRow): OrderView {
  return {
    id: o.id,
    status: o.status,
    total: o.total,
    items: o.items.map((i) => ({ product: i.productCode, price: i.price, city_id: i.params.cityId ?? null })),
    created_at: o.createdAt.toISOString(),
  };
}

export function presentPayment(p: PaymentRow): PaymentView {
  const d = p.details as {
    last4?: string;
    redirectUrl?: string;
    invoice?: PaymentView['invoice'];
  };
  return {
    id: p.id,
    method: p.method,
    provider: p.provider,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    card_last4: d.last4 ?? null,
    next_action: p.status === 'requires_action' && d.redirectUrl ? { type: 'redirect', url: d.redirectUrl } : null,
    invoice: d.invoice ?? null,
    created_at: p.createdAt.toISOString(),
  };
}

function statusOf(order: OrderRow | null, payment: PaymentRow | null): PaymentResult['status'] {
  if (order?.status === 'paid') return 'paid';
  if (payment?.status === 'succeeded') return 'loaded';
  if (payment?.status === 'requires_action') return 'requires_action';
  if (payment?.status === 'pending' && order?.status !== 'failed') return 'pending';
  return 'failed';
}

async function resultOf(
  ctx: AppContext,
  userId: number,
  ref: { orderId?: number; paymentId?: number },
): Promise<PaymentResult> {
  let payment: PaymentRow | null = null;
  let order: OrderRow | null = null;
  if (ref.paymentId) [payment] = await ctx.db.select().from(payments).where(eq(payments.id, ref.paymentId));
  const orderId = ref.orderId ?? payment?.orderId;
  if (orderId) [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  if (!payment && order?.paymentId)
    [payment] = await ctx.db.select().from(payments).where(eq(payments.id, order.paymentId));
  const [cart, position] = await Promise.all([getCart(ctx, userId), positionOf(ctx.db, userId, ctx.now())]);
  return {
    status: statusOf(order ?? null, payment ?? null),
    order: order ? presentOrder(order) : null,
    payment: payment ? presentPayment(payment) : null,
    balance: cart.balance,
    position,
    cart,
  };
}

/** GET /payment/getPayment/{id}: the owner's (or an admin's) view, refreshed from the provider while open. */
export async function getPayment(ctx: AppContext, viewer: { id: number; role: string }, paymentId: number) {
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment || (payment.userId !== viewer.id && viewer.role !== 'admin'))
    throw notFound(msg('money.paymentNotFound'));
  if (payment.status === 'pending' || payment.status === 'requires_action') await refresh(ctx, payment);
  return resultOf(ctx, payment.userId, { paymentId });
}
