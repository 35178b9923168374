// Settlement (docs/decisions/0400, 0401, 0404): what a provider says about a payment is applied exactly
// once, whoever asks (the request that started it, a retry, a webhook, the minute poll):
// - a payment is settled under its row lock, inside the money lock order, and its ledger transaction is
//   unique per payment (`payment:<id>`); a webhook's effect is unique per provider event id;
// - a webhook is a hint: its signature is checked, then the payment's state is read back from the
//   provider and that is applied;
// - what a crash leaves pending is settled by settleOpenPayments (on start and every minute), refund
//   intents whose outcome is unknown included (decision 0423).
import { msg } from '#shared/api/messages.ts';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { atomically, providerUnavailable } from './atomic';
import { faultPoint, pausePoint } from './fault';
import { InsufficientBalance, lockMoney, transfer, type MoneyLock } from './ledger';
import * as repo from './money.repo';
import type { PaymentRow } from './money.repo';
import { CartChanged, payOrder } from './orders';
import { bookReversal, resolveRefundIntents } from './reversals';
import { metricsOf } from '../../lib/metrics';
import { providers } from './providers';
import {
  providerKey,
  ProviderUnavailable,
  WebhookRejected,
  type ProviderState,
  type WebhookSource,
} from './providers/provider';

/** Reads the provider's state of an open payment and applies it. */
export async function refresh(
  ctx: AppContext,
  payment: PaymentRow,
): Promise<'applied' | 'never_started' | 'unavailable'> {
  const provider = providers(ctx).byName(payment.method as 'card' | 'crypto', payment.provider);
  if (!provider) return 'unavailable';
  let state: ProviderState | null;
  try {
    state = await provider.fetch({
      idempotencyKey: providerKey(payment.id),
      providerRef: payment.providerRef,
      createdAt: payment.createdAt,
    });
  } catch (err) {
    if (err instanceof ProviderUnavailable) return 'unavailable';
    throw err;
  }
  if (!state) return 'never_started';
  await applyState(ctx, payment.id, state);
  return 'applied';
}

type Outcome = 'credited' | 'updated' | 'failed' | 'unchanged' | 'duplicate';

/**
 * Records what the provider says about a payment, exactly once: under the payment's row lock, a success
 * credits the load (ledger key `payment:<id>`) and pays its order from the balance (a payment of purpose
 * `cart`; one of purpose `load` has no order, decision 0406, and only credits: the cart stays as it is); a
 * failure closes the payment and its order. A settled payment never changes again. With `event`, the provider's event id is
 * recorded in the same transaction (a redelivery then changes nothing).
 */
export async function applyState(
  ctx: AppContext,
  paymentId: number,
  state: ProviderState,
  event?: { provider: string; id: string; type: string },
): Promise<Outcome> {
  const now = ctx.now();
  // Who it belongs to and whether it pays an order never change: read before the lock order is entered.
  const owner = await repo.paymentById(ctx.db, paymentId);
  if (!owner) throw new Error(`payment ${paymentId} does not exist`);
  const outcome = await atomically(ctx, async (tx): Promise<Outcome> => {
    const lock = await lockMoney(tx, [owner.userId], owner.orderId ? ['cash', 'revenue'] : ['cash']);
    if (event) {
      const fresh = await repo.recordEvent(tx, {
        provider: event.provider,
        eventId: event.id,
        type: event.type,
        paymentId,
        outcome: 'received',
        receivedAt: now,
      });
      if (!fresh) return 'duplicate';
    }
    const p = await repo.lockPayment(tx, paymentId);
    const applied = await applyLocked(ctx, tx, lock, p, state);
    if (event) await repo.setEventOutcome(tx, event.provider, event.id, applied);
    return applied;
  });
  // What the operator watches (decision 1019): each change a provider's answer made, once it is committed.
  if (outcome !== 'unchanged' && outcome !== 'duplicate')
    metricsOf(ctx).payments.inc({ method: owner.method, provider: owner.provider, outcome });
  return outcome;
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
    await repo.updatePayment(tx, p.id, {
      status: 'succeeded',
      providerRef: state.ref,
      details,
      settledAt: now,
      updatedAt: now,
    });
    if (p.orderId) {
      const order = await repo.lockOrder(tx, p.orderId);
      if (order?.status === 'pending') {
        try {
          await tx.transaction((sp) => payOrder(ctx, sp, lock, order, true));
        } catch (err) {
          // The credits stay on the balance; the order is closed unpaid.
          if (!(err instanceof InsufficientBalance || err instanceof CartChanged)) throw err;
          await repo.failOrder(tx, order.id);
        }
      }
    }
    return 'credited';
  }
  if (!open) return 'unchanged';
  if (state.status === 'failed' || state.status === 'expired') {
    await repo.updatePayment(tx, p.id, { status: state.status, providerRef: state.ref, details, updatedAt: now });
    if (p.orderId) await repo.failOrder(tx, p.orderId, true);
    return 'failed';
  }
  await repo.updatePayment(tx, p.id, { status: state.status, providerRef: state.ref, details, updatedAt: now });
  return 'updated';
}

/** A payment the provider never heard of, long after it was started, was never charged. */
const NEVER_STARTED_AFTER_MS = 15 * 60_000;

/**
 * Periodic task and start-up reconciliation: every open card or crypto payment is settled with the
 * provider's current state, and every refund intent left unknown is retried by its key. Safe on many
 * instances at once (settlement is exactly once).
 */
export async function settleOpenPayments(ctx: AppContext, limit = 100): Promise<number> {
  const open = await repo.openPayments(ctx.db, limit);
  let settled = 0;
  try {
    for (const p of open) {
      const outcome = await refresh(ctx, p);
      if (outcome === 'never_started' && ctx.now().getTime() - p.createdAt.getTime() > NEVER_STARTED_AFTER_MS) {
        await applyState(ctx, p.id, { status: 'failed', ref: `none_${providerKey(p.id)}`, failure: 'never_started' });
      }
      if (outcome === 'applied') settled += 1;
    }
  } finally {
    // Refunds asked of a provider whose outcome is still unknown (decision 0423): also when a payment above
    // failed, so one payment that keeps failing never holds a refund back for good.
    await resolveRefundIntents(ctx);
  }
  return settled;
}

/**
 * A provider's webhook: the signature is checked over the raw body, the event id makes a redelivery a
 * no-op, and the payment's state is read back from the provider (so late and out-of-order events apply
 * the truth, not the event); a provider whose signed notification is the record (Verotel FlexPay) gives
 * the state in the event. Bad signature 401, wrong source 403, unreadable 400: nothing is written.
 */
export async function handleWebhook(
  ctx: AppContext,
  providerName: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  source?: WebhookSource,
) {
  const all = providers(ctx);
  // One name may serve both methods (the sandbox): the event says which of them it is about.
  const named = [all.crypto, all.card].filter((p) => p?.name === providerName && p.parseWebhook);
  if (!named[0]?.parseWebhook) throw notFound();
  let event;
  try {
    event = named[0].parseWebhook(rawBody, headers, source);
  } catch (err) {
    if (err instanceof WebhookRejected)
      throw new AppError(
        err.status,
        'webhook_rejected',
        msg(err.status === 401 ? 'money.badSignature' : err.status === 403 ? 'money.wrongSource' : 'money.badWebhook'),
      );
    throw err;
  }
  faultPoint(ctx, 'after_webhook_verified');
  if (await repo.eventSeen(ctx.db, providerName, event.id)) return { received: true as const, outcome: 'duplicate' };
  const provider = named.find((p) => !event.method || p!.method === event.method) ?? null;
  const payment = provider ? await repo.paymentOfEvent(ctx.db, provider, event) : undefined;
  if (!provider || !payment || (event.ref && payment.providerRef && payment.providerRef !== event.ref)) {
    // Names no payment of ours. Not recorded under its event id, which would make the same event naming the
    // right payment a duplicate: one that is the record (a sale's outcome, a refund or chargeback) is kept
    // for an admin to match (decision 0420); a hint (read back from the provider) is dropped.
    if (!event.state && !event.reversal) return { received: true as const, outcome: 'ignored' };
    await repo.recordUnmatched(ctx.db, {
      provider: providerName,
      eventId: event.id,
      type: event.type,
      reference: [event.paymentId !== null ? providerKey(event.paymentId) : null, event.ref ?? event.state?.ref]
        .filter(Boolean)
        .join(' '),
      amount: event.reversal?.amount ?? event.state?.amount ?? null,
      at: ctx.now(),
    });
    return { received: true as const, outcome: 'unmatched' };
  }
  if (event.reversal) {
    // A refund or chargeback (decision 0423): booked once by its own id. The money has left: booked while
    // its own kind stays within the load, and what it takes beyond (with the other kind) is flagged.
    const { outcome } = await bookReversal(
      ctx,
      {
        paymentId: payment.id,
        kind: event.reversal.kind,
        amount: event.reversal.amount,
        key: `${event.reversal.kind}:${provider.name}:${event.reversal.id}`,
        memo: event.type,
        beyond: 'book',
      },
      { provider: provider.name, id: event.id, type: event.type },
    );
    return { received: true as const, outcome };
  }
  let state: ProviderState | null = event.state ?? null;
  try {
    state ??= await provider.fetch({
      idempotencyKey: providerKey(payment.id),
      providerRef: payment.providerRef ?? event.ref,
      createdAt: payment.createdAt,
    });
  } catch (err) {
    // Unknown now: the provider redelivers later.
    if (err instanceof ProviderUnavailable) throw providerUnavailable();
    throw err;
  }
  // The provider does not know it (yet): nothing recorded, a later delivery is read again.
  if (!state) return { received: true as const, outcome: 'ignored' };
  const outcome = await applyState(ctx, payment.id, state, { provider: provider.name, id: event.id, type: event.type });
  return { received: true as const, outcome };
}
