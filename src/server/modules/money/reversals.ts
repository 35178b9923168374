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
// No load is reversed beyond its amount.
import { msg } from '#shared/api/messages.ts';
import { LANGUAGES, type Language } from '#shared/constants.ts';
import type { HeldAccountsResponse, RefundableLoad, RefundLoadBody, ReleaseHoldBody } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { writeAudit } from '../../db/audit';
import { enqueue, type JobHandler } from '../../lib/jobs';
import { notFound, ValidationError } from '../../lib/errors';
import { translateKey } from '../../lib/message-i18n';
import { getAccount } from '../account/account.service';
import { publicBase } from '../auth/emails';
import { currentUser } from '../auth/identity.service';
import { addNotice } from '../notices/notices.service';
import { atomically, providerUnavailable } from './atomic';
import { hold, holdOf, lockMoney, release, transactionByKey, transfer } from './ledger';
import * as ledgerRepo from './ledger.repo';
import * as repo from './money.repo';
import type { PaymentRow } from './money.repo';
import { providers } from './providers';
import { ProviderUnavailable, RefundRefused, type PaymentProvider } from './providers/provider';

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
}

export type ReversalOutcome = 'reversed' | 'duplicate' | 'too_much' | 'not_credited';

/**
 * Books one reversal, exactly once: under the user's money lock, the load must be credited and not
 * reversed beyond its amount; then user -> cash, and the account held when the balance went below zero
 * or it is a chargeback (she is told, in the same transaction). With `event`, the provider's event id is
 * recorded in the same transaction (a redelivery changes nothing).
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
    if ((await ledgerRepo.reversedOf(tx, p.id)) + r.amount > p.amount) return answer('too_much');
    // Held before the posting: the account row may be below zero only while held (its CHECK).
    const after = (await ledgerRepo.userBalance(tx, p.userId)) - r.amount;
    if (after < 0 || r.kind === 'chargeback') {
      const reason = r.kind === 'chargeback' ? 'chargeback' : 'negative_balance';
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
    const balance = balanceOf({ user: p.userId });
    await writeAudit(tx, {
      actorId: r.actorId ?? null,
      action: `money.${r.kind}`,
      targetUserId: p.userId,
      data: { payment_id: p.id, amount: r.amount, key: r.key, transaction_id: transactionId, balance },
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

/** A credited load as the refund form shows it. */
async function loadView(ctx: AppContext, p: PaymentRow): Promise<RefundableLoad> {
  const reversed = await ledgerRepo.reversedOf(ctx.db, p.id);
  return {
    payment_id: p.id,
    user_id: p.userId,
    method: p.method,
    provider: p.provider,
    amount: p.amount,
    reversed,
    refundable: Math.max(0, p.amount - reversed),
    currency: p.currency,
    settled_at: p.settledAt?.toISOString() ?? null,
    via: refundWay(ctx, p).via,
  };
}

/** GET /api/admin/loads/{paymentId}. */
export async function refundableLoad(ctx: AppContext, paymentId: number): Promise<RefundableLoad> {
  return loadView(ctx, await creditedLoad(ctx, paymentId));
}

/** POST /api/admin/refundLoad: through the provider's API where it has one, else recorded by hand. */
export async function refundLoad(ctx: AppContext, admin: { id: number }, body: RefundLoadBody) {
  const p = await creditedLoad(ctx, body.payment_id);
  const load = await loadView(ctx, p);
  const { via, provider } = refundWay(ctx, p);
  if (via === 'at_provider') throw ValidationError.field('payment_id', msg('money.refundAtProvider'));
  // Ours, also given to the provider as its idempotency key: the same key again is the same refund.
  const key =
    via === 'provider' && provider
      ? `refund:${provider.name}:${p.id}-${body.idempotency_key}`
      : `refund:hand:${p.id}:${body.idempotency_key}`;
  if (await transactionByKey(ctx.db, key)) return refundAnswer(ctx, p, true, null);
  const amount = body.amount ?? load.refundable;
  if (amount <= 0 || amount > load.refundable) throw ValidationError.field('amount', msg('money.refundTooMuch'));
  let providerRefund: { id: string; link?: string | null } | null = null;
  if (via === 'provider' && provider?.refund) {
    try {
      providerRefund = await provider.refund({
        providerRef: p.providerRef ?? '',
        amount,
        currency: p.currency,
        key: `${p.id}-${body.idempotency_key}`,
      });
    } catch (err) {
      if (err instanceof ProviderUnavailable) throw providerUnavailable();
      if (err instanceof RefundRefused) throw ValidationError.field('amount', msg('money.refundTooMuch'));
      throw err;
    }
  }
  const booked = await bookReversal(ctx, {
    paymentId: p.id,
    kind: 'refund',
    amount,
    key,
    actorId: admin.id,
    memo: providerRefund ? `${body.reason} (${providerRefund.id})` : body.reason,
  });
  if (booked.outcome === 'too_much') throw ValidationError.field('amount', msg('money.refundTooMuch'));
  if (booked.outcome === 'not_credited') throw notFound(msg('money.paymentNotFound'));
  return refundAnswer(ctx, p, booked.outcome === 'duplicate', providerRefund?.link ?? null);
}

async function refundAnswer(ctx: AppContext, p: PaymentRow, duplicate: boolean, claimUrl: string | null) {
  const reversed = await ledgerRepo.reversedOf(ctx.db, p.id);
  const held = await holdOf(ctx.db, p.userId);
  return {
    payment_id: p.id,
    user_id: p.userId,
    balance: held?.balance ?? (await ledgerRepo.userBalance(ctx.db, p.userId)),
    refunded: reversed,
    refundable: Math.max(0, p.amount - reversed),
    held: !!held,
    duplicate,
    claim_url: claimUrl,
  };
}

// ---------------------------------------------------------------- held accounts

/** GET /api/admin/heldAccounts. */
export async function heldAccounts(ctx: AppContext): Promise<HeldAccountsResponse> {
  const rows = await ledgerRepo.heldAccounts(ctx.db, QUEUE_SIZE);
  const data = await Promise.all(
    rows.map(async (r) => ({
      user_id: r.userId!,
      username: (await currentUser(ctx, r.userId!).catch(() => null))?.username ?? '',
      balance: Number(r.balance),
      reason: r.reason!,
      since: r.since!.toISOString(),
    })),
  );
  return { data, currency: ctx.env.SITE_CURRENCY };
}

/** POST /api/admin/releaseHold: refused (422) while the balance is below zero. */
export async function releaseHold(ctx: AppContext, admin: { id: number }, body: ReleaseHoldBody) {
  const now = ctx.now();
  return atomically(ctx, async (tx) => {
    const lock = await lockMoney(tx, [body.user_id]);
    const held = await holdOf(tx, body.user_id);
    if (!held) return { user_id: body.user_id, released: false };
    if (held.balance < 0) throw ValidationError.field('user_id', msg('money.releaseBelowZero'));
    await release(tx, lock, body.user_id);
    await writeAudit(tx, {
      actorId: admin.id,
      action: 'money.release_hold',
      targetUserId: body.user_id,
      data: { reason: body.reason, held_since: held.since.toISOString(), hold_reason: held.reason },
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
