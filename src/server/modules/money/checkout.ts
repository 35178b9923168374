// Checkout (docs/decisions/0401, 0400, 0406): buying from the balance, loads by card or crypto that pay the
// cart (purpose `cart`), and loads that only load (purpose `load`: no order, the cart is not read, so
// settlement has nothing to pay). Exactly once, whatever retries and races happen:
// - an order and a payment are unique per (account, client key): a retried call finds them and resumes;
// - the intent (order + pending payment) is committed before the provider is called, and the provider is
//   called with a key derived from our payment id, so a repeated call answers the first charge;
// - what the provider answers is applied by settlement.ts; an order is paid by orders.ts.
import crypto from 'node:crypto';
import { msg, type Message } from '#shared/api/messages.ts';
import type { MakePaymentBody, PaymentPurpose, PaymentResult, ProductCode } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { notFound, ValidationError } from '../../lib/errors';
import * as policy from '../../policies';
import { publicBase } from '../auth/emails';
import { positionOf } from '../listings/listings.service';
import { atomically, providerUnavailable } from './atomic';
import { assertListed, cartLines, getCart, summarize } from './cart';
import { faultPoint } from './fault';
import { AccountHeld, balanceOf, holdOf, InsufficientBalance, lockMoney, transactionByKey } from './ledger';
import * as repo from './money.repo';
import type { OrderItem, OrderRow, PaymentRow } from './money.repo';
import { presentOrder, presentPayment, statusOf } from './money.presenter';
import { CartChanged, payOrder } from './orders';
import { productByCode } from './products';
import { providers } from './providers';
import { providerKey, ProviderUnavailable, type ProviderState } from './providers/provider';
import { applyState, refresh } from './settlement';

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
    const order = await repo.insertOrder(tx, {
      userId: input.userId,
      total: input.items.reduce((sum, i) => sum + i.price, 0),
      items: input.items,
      status: 'pending',
      source: input.source,
      idempotencyKey: input.idempotencyKey,
      requestHash: input.requestHash,
      createdAt: ctx.now(),
    });
    if (!order) {
      const existing = (await repo.orderByKey(tx, input.userId, input.idempotencyKey))!;
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

/** What a call is for: the spec's makePayment (no purpose) pays the cart (decision 0406). */
const purposeOf = (body: MakePaymentBody): PaymentPurpose => body.purpose ?? 'cart';

/**
 * What a key promised: the same key with another method, amount or purpose is another request, and
 * refused. A `cart` call hashes as before purposes existed, so a payment begun then resumes.
 */
const requestHash = (body: MakePaymentBody) =>
  crypto
    .createHash('sha256')
    .update(
      JSON.stringify([
        body.method,
        'amount' in body ? (body.amount ?? null) : null,
        ...(purposeOf(body) === 'load' ? ['load'] : []),
      ]),
    )
    .digest('hex');

interface Prior {
  order: OrderRow | null;
  payment: PaymentRow | null;
  hash: string;
}

async function findByKey(ctx: AppContext, userId: number, key: string): Promise<Prior | null> {
  const order = await repo.orderByKey(ctx.db, userId, key);
  if (order) {
    const payment = order.paymentId ? await repo.paymentById(ctx.db, order.paymentId) : undefined;
    return { order, payment: payment ?? null, hash: order.requestHash };
  }
  const payment = await repo.paymentByKey(ctx.db, userId, key);
  return payment ? { order: null, payment, hash: String(payment.details.requestHash ?? '') } : null;
}

const returnUrl = (ctx: AppContext, path: string | undefined, paymentId: number) =>
  `${publicBase(ctx)}${path ?? '/checkout/cart'}?payment=${paymentId}`;

export async function makePayment(ctx: AppContext, userId: number, body: MakePaymentBody): Promise<PaymentResult> {
  const hash = requestHash(body);
  const prior = await findByKey(ctx, userId, body.idempotency_key);
  if (prior) return resume(ctx, userId, prior, hash, body);

  // A load never reads the cart: it is a plain load whatever the cart holds (no order, nothing paid).
  const purpose = purposeOf(body);
  const lines = purpose === 'cart' ? await cartLines(ctx, userId) : [];
  const balance = await balanceOf(ctx.db, userId);
  const total = lines.reduce((sum, l) => sum + l.price, 0);
  const summary = summarize(total, balance, ctx.env.MIN_TOPUP);
  if (purpose === 'cart' && body.expected_total !== undefined && body.expected_total !== total)
    throw ValidationError.field('expected_total', msg('money.pricesChanged'));
  if (lines.length) await assertListed(ctx, userId, 'cart');
  // A held account buys nothing, from its balance or by card (decision 0423); loading credits stays open.
  if (lines.length && (await holdOf(ctx.db, userId))) throw ValidationError.field('cart', msg('money.accountHeld'));
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
      if (err instanceof AccountHeld) return refuse('cart', msg('money.accountHeld'));
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
      const order = await repo.insertOrder(tx, {
        userId,
        total,
        items,
        status: 'pending',
        source: 'checkout',
        idempotencyKey: body.idempotency_key,
        requestHash: hash,
        createdAt: ctx.now(),
      });
      if (!order) return null;
      orderId = order.id;
    }
    const created = await repo.insertPayment(tx, {
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
        purpose,
        ...(body.method === 'card' ? { cardToken: body.card_token, returnPath: body.return_path ?? null } : {}),
      },
      createdAt: ctx.now(),
      updatedAt: ctx.now(),
    });
    if (!created) {
      // A parallel call with this key won; undo our order and follow theirs.
      if (orderId) throw new ConcurrentKey();
      return null;
    }
    if (orderId) await repo.linkOrderPayment(tx, orderId, created.id);
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
    const row = await repo.paymentById(ctx.db, paymentId);
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

async function resultOf(
  ctx: AppContext,
  userId: number,
  ref: { orderId?: number; paymentId?: number },
): Promise<PaymentResult> {
  let payment: PaymentRow | null = null;
  let order: OrderRow | null = null;
  if (ref.paymentId) payment = (await repo.paymentById(ctx.db, ref.paymentId)) ?? null;
  const orderId = ref.orderId ?? payment?.orderId;
  if (orderId) order = (await repo.orderById(ctx.db, orderId)) ?? null;
  if (!payment && order?.paymentId) payment = (await repo.paymentById(ctx.db, order.paymentId)) ?? null;
  const [cart, position] = await Promise.all([getCart(ctx, userId), positionOf(ctx.db, userId, ctx.now())]);
  return {
    status: statusOf(order, payment),
    order: order ? presentOrder(order) : null,
    payment: payment ? presentPayment(payment) : null,
    balance: cart.balance,
    position,
    cart,
  };
}

/** GET /payment/getPayment/{id}: the owner's (or an admin's) view, refreshed from the provider while open. */
export async function getPayment(ctx: AppContext, viewer: policy.Actor, paymentId: number) {
  const payment = await repo.paymentById(ctx.db, paymentId);
  // Someone else's payment looks exactly like a missing one.
  if (!payment || !policy.can(viewer, 'read', policy.money(payment.userId)))
    throw notFound(msg('money.paymentNotFound'));
  if (payment.status === 'pending' || payment.status === 'requires_action') await refresh(ctx, payment);
  return resultOf(ctx, payment.userId, { paymentId });
}
