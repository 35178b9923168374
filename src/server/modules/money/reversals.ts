// Refunds, chargebacks and held accounts (docs/decisions/0423). A reversal gives back (part of) a credited
// load: its own ledger transaction (kind `refund` or `chargeback`, user -> cash), never an edit of the
// load. It is the only posting that may take a user balance below zero (the credits were spent); the
// account is then held, and a chargeback holds it whatever the balance: a held account buys nothing (the
// ledger refuses it), its auto-topup pauses, she is told in her language, and the admin's queue lists it
// until an admin releases it (not while the balance is below zero). Every reversal enters the one lock
// order of money (lockMoney) and is booked once by its key:
//   refund:<provider>:<payment>-<the admin's key>     the provider's refund API (our key is also its key)
//   refund:<provider>:<its refund id>                  a refund made at the provider, from its notification
//   chargeback:<provider>:<its dispute id>             a chargeback, from its notification
//   refund:hand:<payment>:<the admin's key>           a refund recorded by hand (a bank transfer sent back)
// A refund through a provider's API is an intent first (refund_intents), written before the provider is
// asked, so money that leaves through a provider is always booked: refunds and chargebacks that together
// exceed the load are both booked, and the excess is charged to her (held) and flagged for an admin.
import { msg } from '#shared/api/messages.ts';
import { LANGUAGES, type Language } from '#shared/constants.ts';
import type { HeldAccountsResponse, RefundableLoad, RefundLoadBody, ReleaseHoldBody } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { writeAudit } from '../../db/audit';
import { enqueue, type JobHandler } from '../../lib/jobs';
import { AppError, notFound, ValidationError } from '../../lib/errors';
import { translateKey } from '../../lib/message-i18n';
import { getAccount } from '../account/account.service';
import { publicBase } from '../auth/emails';
import { currentUser } from '../auth/identity.service';
import { addNotice } from '../notices/notices.service';
import { atomically } from './atomic';
import { pausePoint } from './fault';
import { hold, holdOf, lockMoney, release, transactionByKey, transfer } from './ledger';
import * as ledgerRepo from './ledger.repo';
import * as repo from './money.repo';
import type { PaymentRow, RefundIntentRow } from './money.repo';
import { providers } from './providers';
import { ProviderUnavailable, RefundRefused, type PaymentProvider, type RefundResult } from './providers/provider';

export const HOLD_MAIL_JOB = 'money.hold-mail';
const QUEUE_SIZE = 200;

export interface Reversal {
  paymentId: number;
  kind: 'refund' | 'chargeback';
  amount: number;
  /** Unique per reversal (see above). */
  key: string;
  actorId?: number | null;
  memo?: string | null;
  /**
   * What happens when it would take more than is left of the load:
   * - `refuse`: a refund recorded by hand; refused when it exceeds what is left after the booked reversals
   *   and the pending refund intents (the admin is told, nothing is booked).
   * - `book`: a provider's notification (the money has left): booked as long as its own kind (refunds, or
   *   chargebacks) stays within the load; the excess over the load is charged to her and flagged.
   * - `force`: a refund the provider made for one of our intents: always booked, the excess flagged.
   */
  beyond: 'refuse' | 'book' | 'force';
  /** The refund intent this books: marked booked in the same transaction. */
  intent?: { id: number; refundId: string | null; claimUrl: string | null };
}

export type ReversalOutcome = 'reversed' | 'duplicate' | 'too_much' | 'not_credited';

/**
 * Books one reversal, exactly once: under the user's money lock, the load must be credited; what goes
 * beyond it follows `r.beyond`. Then user -> cash, and the account held when the balance went below zero,
 * it is a chargeback, or it went beyond the load (she is told, in the same transaction); an excess over
 * the load is flagged for an admin. With `event`, the provider's event id is recorded in the same
 * transaction (a redelivery changes nothing).
 */
export async function bookReversal(
  ctx: AppContext,
  r: Reversal,
  event?: { provider: string; id: string; type: string },
): Promise<{ outcome: ReversalOutcome }> {
  const owner = await repo.paymentById(ctx.db, r.paymentId);
  if (!owner) throw new Error(`payment ${r.paymentId} does not exist`);
  const now = ctx.now();
  return atomically(ctx, async (tx) => {
    const lock = await lockMoney(tx, [owner.userId], ['cash']);
    const answer = async (outcome: ReversalOutcome, ownEvent = true) => {
      if (event && ownEvent) await repo.setEventOutcome(tx, event.provider, event.id, outcome);
      return { outcome };
    };
    if (event) {
      const fresh = await repo.recordEvent(tx, {
        provider: event.provider,
        eventId: event.id,
        type: event.type,
        paymentId: r.paymentId,
        outcome: 'received',
        receivedAt: now,
      });
      if (!fresh) return answer('duplicate', false);
    }
    if (await transactionByKey(tx, r.key)) return answer('duplicate');
    const p = await repo.lockPayment(tx, r.paymentId);
    if (p.status !== 'succeeded' || !(await transactionByKey(tx, `payment:${p.id}`))) return answer('not_credited');
    if (!Number.isSafeInteger(r.amount) || r.amount <= 0) return answer('too_much');
    const reversed = await ledgerRepo.reversedOf(tx, p.id);
    if (r.beyond === 'refuse' && reversed + (await repo.pendingRefundsOf(tx, p.id)) + r.amount > p.amount)
      return answer('too_much');
    // A provider never refunds, nor charges back, more than the sale: such a notification is not booked.
    if (r.beyond === 'book' && (await ledgerRepo.reversedOf(tx, p.id, r.kind)) + r.amount > p.amount)
      return answer('too_much');
    // What this reversal takes beyond the load (refunds and chargebacks together): charged to her, flagged.
    const excess = Math.max(0, reversed + r.amount - Math.max(p.amount, reversed));
    // Held before the posting: the account row may be below zero only while held (its CHECK). An excess
    // always comes with a chargeback (refunds alone never exceed the load), hence its reason.
    const after = (await ledgerRepo.userBalance(tx, p.userId)) - r.amount;
    if (after < 0 || r.kind === 'chargeback' || excess > 0) {
      const reason = r.kind === 'chargeback' || excess > 0 ? 'chargeback' : 'negative_balance';
      if (await hold(tx, lock, p.userId, reason, now)) await tellHeld(tx, p.userId, reason, now);
    }
    const { transactionId, balanceOf } = await transfer(tx, lock, {
      kind: r.kind,
      idempotencyKey: r.key,
      userId: p.userId,
      paymentId: p.id,
      createdBy: r.actorId ?? null,
      memo: r.memo ?? null,
      at: now,
      from: { user: p.userId },
      to: 'cash',
      amount: r.amount,
    });
    if (excess > 0)
      await repo.insertFlag(tx, { transactionId, paymentId: p.id, userId: p.userId, excess, createdAt: now });
    if (r.intent)
      await repo.updateIntent(tx, r.intent.id, {
        status: 'booked',
        providerRefundId: r.intent.refundId,
        claimUrl: r.intent.claimUrl,
        resolvedAt: now,
      });
    const balance = balanceOf({ user: p.userId });
    await writeAudit(tx, {
      actorId: r.actorId ?? null,
      action: `money.${r.kind}`,
      targetUserId: p.userId,
      data: {
        payment_id: p.id,
        amount: r.amount,
        key: r.key,
        transaction_id: transactionId,
        balance,
        ...(excess > 0 ? { beyond_load: excess } : {}),
      },
      at: now,
    });
    return answer('reversed');
  });
}

// ---------------------------------------------------------------- the admin's refund

/** How a load is refunded: its provider's API, its provider's back office (then its notification), or by hand. */
function refundWay(ctx: AppContext, p: PaymentRow): { via: RefundableLoad['via']; provider: PaymentProvider | null } {
  if (p.method === 'bank') return { via: 'hand', provider: null };
  const provider = providers(ctx).byName(p.method, p.provider);
  if (provider?.refund) return { via: 'provider', provider };
  if (provider?.refundsByNotification) return { via: 'at_provider', provider };
  // A provider no longer configured: the money goes back another way, recorded by hand.
  return { via: 'hand', provider: null };
}

async function creditedLoad(ctx: AppContext, paymentId: number): Promise<PaymentRow> {
  const p = await repo.paymentById(ctx.db, paymentId);
  if (!p || p.status !== 'succeeded') throw notFound(msg('money.paymentNotFound'));
  return p;
}

/** What may still be refunded: the load less what was reversed and what pending refund intents hold back. */
async function refundableOf(db: Db | Tx, p: PaymentRow) {
  const reversed = await ledgerRepo.reversedOf(db, p.id);
  return { reversed, refundable: Math.max(0, p.amount - reversed - (await repo.pendingRefundsOf(db, p.id))) };
}

/** A credited load as the refund form shows it. */
async function loadView(ctx: AppContext, p: PaymentRow): Promise<RefundableLoad> {
  const { reversed, refundable } = await refundableOf(ctx.db, p);
  return {
    payment_id: p.id,
    user_id: p.userId,
    method: p.method,
    provider: p.provider,
    amount: p.amount,
    reversed,
    refundable,
    currency: p.currency,
    settled_at: p.settledAt?.toISOString() ?? null,
    via: refundWay(ctx, p).via,
  };
}

/** GET /api/admin/loads/{paymentId}. */
export async function refundableLoad(ctx: AppContext, paymentId: number): Promise<RefundableLoad> {
  return loadView(ctx, await creditedLoad(ctx, paymentId));
}

const tooMuch = () => ValidationError.field('amount', msg('money.refundTooMuch'));

/**
 * POST /api/admin/refundLoad: through the provider's API where it has one (an intent first, decision
 * 0423), else recorded by hand.
 */
export async function refundLoad(ctx: AppContext, admin: { id: number }, body: RefundLoadBody) {
  const p = await creditedLoad(ctx, body.payment_id);
  const { via, provider } = refundWay(ctx, p);
  if (via === 'at_provider') throw ValidationError.field('payment_id', msg('money.refundAtProvider'));
  if (via === 'provider' && provider?.refund) return refundThroughProvider(ctx, admin, body, p, provider);
  // By hand: the money went back another way before; this records it, never beyond what is left.
  const key = `refund:hand:${p.id}:${body.idempotency_key}`;
  if (await transactionByKey(ctx.db, key)) return refundAnswer(ctx, p, true, null);
  const amount = body.amount ?? (await refundableOf(ctx.db, p)).refundable;
  if (amount <= 0) throw tooMuch();
  const booked = await bookReversal(ctx, {
    paymentId: p.id,
    kind: 'refund',
    amount,
    key,
    actorId: admin.id,
    memo: body.reason,
    beyond: 'refuse',
  });
  if (booked.outcome === 'too_much') throw tooMuch();
  if (booked.outcome === 'not_credited') throw notFound(msg('money.paymentNotFound'));
  return refundAnswer(ctx, p, booked.outcome === 'duplicate', null);
}

/**
 * A refund through the provider's API. 1: its intent (key, amount) is written in the transaction that reads
 * what is refundable, so a chargeback or another refund booked meanwhile sees it; 2: the provider is asked,
 * with our key as its idempotency key; 3: the refund it made is booked whatever was booked meanwhile
 * (beyond the load, the excess is flagged), or the intent is cancelled when it refused. Unreachable or
 * anything unknown leaves the intent pending: the same key again, or the minute's settlement, retries it.
 */
async function refundThroughProvider(
  ctx: AppContext,
  admin: { id: number },
  body: RefundLoadBody,
  p: PaymentRow,
  provider: PaymentProvider,
) {
  const key = `refund:${provider.name}:${p.id}-${body.idempotency_key}`;
  const now = ctx.now();
  const intent = await atomically(ctx, async (tx) => {
    await lockMoney(tx, [p.userId]);
    const known = await repo.intentByKey(tx, key);
    if (known?.status === 'booked' || (await transactionByKey(tx, key))) return null;
    // Asked before and not known how it ended: the same refund (its amount), asked again. The same key with
    // another amount is another refund: refused, the provider knows the key by its first amount.
    if (known?.status === 'pending') {
      if (body.amount !== undefined && body.amount !== known.amount)
        throw ValidationError.field('amount', msg('money.refundKeyAmount'));
      return repo.updateIntent(tx, known.id, { attemptedAt: now });
    }
    const locked = await repo.lockPayment(tx, p.id);
    const { refundable } = await refundableOf(tx, locked);
    const amount = body.amount ?? refundable;
    if (amount <= 0 || amount > refundable) throw tooMuch();
    const values = { amount, actorId: admin.id, reason: body.reason, attemptedAt: now };
    // Refused before (nothing was made with this key): asked again, maybe for another amount.
    if (known) return repo.updateIntent(tx, known.id, { ...values, status: 'pending', resolvedAt: null });
    return repo.insertIntent(tx, {
      ...values,
      key,
      paymentId: p.id,
      userId: p.userId,
      provider: provider.name,
      status: 'pending',
      createdAt: now,
    });
  });
  if (!intent) return refundAnswer(ctx, p, true, (await repo.intentByKey(ctx.db, key))?.claimUrl ?? null);
  const done = await carryOutOnce(ctx, p, provider, intent);
  if (done.outcome === 'refused') throw tooMuch();
  return refundAnswer(ctx, p, done.outcome === 'duplicate', done.claimUrl);
}

/**
 * The intents whose provider call this process is making now. A second call for the same intent while one
 * is under way (a double click, a client's retry, the settlement meeting the admin's retry) would ask a
 * provider without an idempotency key (BTCPay) twice: it answers 503 (pending) instead, and the key asked
 * again once the first call has ended gets its outcome. Per process: instances do not see each other's calls.
 */
const callsUnderWay = new Set<number>();

async function carryOutOnce(...args: Parameters<typeof carryOut>): ReturnType<typeof carryOut> {
  const id = args[3].id;
  if (callsUnderWay.has(id)) throw refundPending();
  callsUnderWay.add(id);
  try {
    return await carryOut(...args);
  } finally {
    callsUnderWay.delete(id);
  }
}

/** The provider did not answer a refund: its intent stays pending (503, come back; the minute's settlement too). */
const refundPending = () => new AppError(503, 'provider_unavailable', msg('money.refundPending'));

/** The provider's key of an intent: ours without the `refund:<provider>:` prefix, `<payment>-<admin key>`. */
const providerKeyOf = (intent: RefundIntentRow) => intent.key.slice(`refund:${intent.provider}:`.length);

/**
 * Asks the provider to make an intent's refund (idempotent by its key) and books what it made, or cancels
 * the intent when it refused. Throws (the intent stays pending) when the outcome is unknown.
 */
async function carryOut(
  ctx: AppContext,
  p: PaymentRow,
  provider: PaymentProvider,
  intent: RefundIntentRow,
): Promise<{ outcome: 'reversed' | 'duplicate' | 'refused'; claimUrl: string | null }> {
  await pausePoint(ctx, 'refund_intent_written');
  let made: RefundResult;
  try {
    made = await provider.refund!({
      providerRef: p.providerRef ?? '',
      amount: intent.amount,
      currency: p.currency,
      key: providerKeyOf(intent),
    });
  } catch (err) {
    if (err instanceof RefundRefused) {
      await atomically(ctx, async (tx) => {
        await lockMoney(tx, [p.userId]);
        await repo.updatePendingIntent(tx, intent.id, { status: 'cancelled', resolvedAt: ctx.now() });
      });
      return { outcome: 'refused', claimUrl: null };
    }
    if (err instanceof ProviderUnavailable) throw refundPending();
    throw err;
  }
  const booked = await bookReversal(ctx, {
    paymentId: p.id,
    kind: 'refund',
    amount: intent.amount,
    key: intent.key,
    actorId: intent.actorId,
    memo: `${intent.reason} (${made.id})`,
    beyond: 'force',
    intent: { id: intent.id, refundId: made.id, claimUrl: made.link ?? null },
  });
  if (booked.outcome === 'not_credited' || booked.outcome === 'too_much')
    throw new Error(`refund intent ${intent.id}: the provider refunded, the ledger answered ${booked.outcome}`);
  return { outcome: booked.outcome, claimUrl: made.link ?? null };
}

/** A pending intent is retried this long after it was last tried (longer than one provider call takes). */
export const INTENT_RETRY_MS = 2 * 60_000;

/**
 * Periodic (with the settlement of open payments): every refund intent whose outcome is still unknown
 * some time after it was last tried (the provider was unreachable, the process died) is asked of the
 * provider again with its key, then booked or cancelled. Taken by one instance at a time.
 */
export async function resolveRefundIntents(ctx: AppContext, limit = 50): Promise<number> {
  const now = ctx.now();
  const stale = await repo.staleIntents(ctx.db, new Date(now.getTime() - INTENT_RETRY_MS), limit);
  let resolved = 0;
  // One intent that fails otherwise than "still unknown" does not stop the others; the first such error
  // is thrown at the end (the task's log).
  let failure: unknown;
  for (const found of stale) {
    const p = await repo.paymentById(ctx.db, found.paymentId);
    const provider = p && p.method !== 'bank' ? providers(ctx).byName(p.method, found.provider) : null;
    // A provider no longer configured: the intent stays pending, listed for the admin.
    if (!p || !provider?.refund) continue;
    const intent = await atomically(ctx, async (tx) => {
      await lockMoney(tx, [found.userId]);
      const current = await repo.intentById(tx, found.id);
      // Tried or resolved meanwhile (another instance, the admin's retry): left to them.
      if (current?.status !== 'pending' || current.attemptedAt.getTime() !== found.attemptedAt.getTime()) return null;
      return repo.updateIntent(tx, found.id, { attemptedAt: now });
    });
    if (!intent) continue;
    try {
      await carryOutOnce(ctx, p, provider, intent);
      resolved += 1;
    } catch (err) {
      // Still unknown: tried again later.
      if (!(err instanceof AppError && err.statusCode === 503)) failure ??= err;
    }
  }
  if (failure) throw failure;
  return resolved;
}

async function refundAnswer(ctx: AppContext, p: PaymentRow, duplicate: boolean, claimUrl: string | null) {
  const { reversed, refundable } = await refundableOf(ctx.db, p);
  const held = await holdOf(ctx.db, p.userId);
  return {
    payment_id: p.id,
    user_id: p.userId,
    balance: held?.balance ?? (await ledgerRepo.userBalance(ctx.db, p.userId)),
    refunded: reversed,
    refundable,
    held: !!held,
    duplicate,
    claim_url: claimUrl,
  };
}

// ---------------------------------------------------------------- held accounts

/**
 * GET /api/admin/heldAccounts: held accounts (with what was charged to each beyond a load and not looked
 * at yet), and the signed notifications that named no payment of ours (decision 0420), for an admin to match.
 */
export async function heldAccounts(ctx: AppContext): Promise<HeldAccountsResponse> {
  const rows = await ledgerRepo.heldAccounts(ctx.db, QUEUE_SIZE);
  const excess = await repo.openExcessOf(
    ctx.db,
    rows.map((r) => r.userId!),
  );
  const data = await Promise.all(
    rows.map(async (r) => ({
      user_id: r.userId!,
      username: (await currentUser(ctx, r.userId!).catch(() => null))?.username ?? '',
      balance: Number(r.balance),
      reason: r.reason!,
      since: r.since!.toISOString(),
      beyond_load: excess.get(r.userId!) ?? 0,
    })),
  );
  const unmatched = (await repo.openUnmatched(ctx.db, QUEUE_SIZE)).map((u) => ({
    provider: u.provider,
    event_id: u.eventId,
    type: u.type,
    reference: u.reference,
    amount: u.amount,
    deliveries: u.deliveries,
    received_at: u.receivedAt.toISOString(),
  }));
  return { data, currency: ctx.env.SITE_CURRENCY, unmatched };
}

/**
 * POST /api/admin/releaseHold: refused (422) while the balance is below zero; an account that does not
 * exist is 404 and nothing is written. Releasing marks what was charged beyond a load as looked at.
 */
export async function releaseHold(ctx: AppContext, admin: { id: number }, body: ReleaseHoldBody) {
  const now = ctx.now();
  // Not held (or no ledger account at all): nothing to do, and no ledger account made for it.
  if (!(await holdOf(ctx.db, body.user_id))) {
    if (!(await repo.accountExists(ctx.db, body.user_id))) throw notFound(msg('admin.userNotFound'));
    return { user_id: body.user_id, released: false };
  }
  return atomically(ctx, async (tx) => {
    const lock = await lockMoney(tx, [body.user_id]);
    const held = await holdOf(tx, body.user_id);
    if (!held) return { user_id: body.user_id, released: false };
    if (held.balance < 0) throw ValidationError.field('user_id', msg('money.releaseBelowZero'));
    await release(tx, lock, body.user_id);
    const beyondLoad = await repo.resolveFlags(tx, body.user_id, admin.id, now);
    await writeAudit(tx, {
      actorId: admin.id,
      action: 'money.release_hold',
      targetUserId: body.user_id,
      data: {
        reason: body.reason,
        held_since: held.since.toISOString(),
        hold_reason: held.reason,
        ...(beyondLoad ? { beyond_load: beyondLoad } : {}),
      },
      at: now,
    });
    await addNotice(tx, {
      userId: body.user_id,
      kind: 'money_released',
      title: 'money.releasedTitle',
      message: 'money.releasedMessage',
      path: `/edit/load/${body.user_id}`,
      at: now,
      replaces: ['money_held'],
    });
    return { user_id: body.user_id, released: true };
  });
}

/** The hold as getData shows it to her. */
export async function holdView(ctx: AppContext, userId: number) {
  const held = await holdOf(ctx.db, userId);
  return held ? { since: held.since.toISOString(), reason: held.reason } : null;
}

/** In the reversal's transaction: the in-app notice (read in her language) and the queued mail. */
async function tellHeld(tx: Tx, userId: number, reason: ledgerRepo.HoldReason, at: Date) {
  await addNotice(tx, {
    userId,
    kind: 'money_held',
    title: 'money.heldTitle',
    message: `money.heldMessage.${reason}`,
    path: `/edit/load/${userId}`,
    at,
    replaces: ['money_released'],
  });
  await enqueue(tx, HOLD_MAIL_JOB, { userId, reason }, at);
}

export const sendHoldMail: JobHandler = async (ctx, payload) => {
  const userId = Number(payload.userId);
  const reason = String(payload.reason) as ledgerRepo.HoldReason;
  const [{ data: account }, user] = await Promise.all([getAccount(ctx, userId), currentUser(ctx, userId)]);
  const lang: Language = (LANGUAGES as readonly string[]).includes(user.language) ? (user.language as Language) : 'en';
  const t = (key: string, params?: Record<string, string>) => translateKey(msg(key, params), lang);
  await ctx.mailer.send({
    to: account.email,
    subject: t('money.heldTitle'),
    text: [
      t('autoTopup.failedMailGreeting', { name: user.username }),
      t(`money.heldMessage.${reason}`),
      '',
      `${t('autoTopup.failedMailLink')}: ${publicBase(ctx)}/edit/load/${userId}`,
    ].join('\n'),
  });
};
