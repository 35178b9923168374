// Admin corrections (DESIGN.md "Money"): a new ledger pair against the adjustments account, never an edit
// of what was written. Once per (user, client key); a debit may not take the balance below zero.
import { msg } from '#shared/api/messages.ts';
import type { AdjustBalanceBody } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../../db/client';
import { writeAudit } from '../../db/audit';
import { ValidationError } from '../../lib/errors';
import { atomically } from './atomic';
import { balanceOf, InsufficientBalance, lockMoney, transactionByKey, transfer } from './ledger';

export interface AdjustInput {
  actor: { id: number };
  userId: number;
  /** Signed minor units. */
  amount: number;
  reason: string;
  idempotencyKey: string;
}

export async function adjustBalance(ctx: AppContext, input: AdjustInput) {
  const key = `adjust:${input.userId}:${input.idempotencyKey}`;
  const now = ctx.now();
  try {
    return await atomically(ctx, async (tx) => {
      const lock = await lockMoney(tx, [input.userId], ['adjustments']);
      const prior = await transactionByKey(tx, key);
      if (prior)
        return {
          user_id: input.userId,
          balance: await balanceOf(tx, input.userId),
          transaction_id: prior.id,
          duplicate: true,
        };
      const { transactionId, balanceOf: after } = await transfer(tx, lock, {
        kind: 'adjustment',
        idempotencyKey: key,
        userId: input.userId,
        createdBy: input.actor.id,
        memo: input.reason,
        at: now,
        from: 'adjustments',
        to: { user: input.userId },
        amount: input.amount,
      });
      await writeAudit(tx, {
        actorId: input.actor.id,
        action: 'money.adjust',
        targetUserId: input.userId,
        data: { amount: input.amount, reason: input.reason, transaction_id: transactionId },
        at: now,
      });
      return {
        user_id: input.userId,
        balance: after({ user: input.userId }),
        transaction_id: transactionId,
        duplicate: false,
      };
    });
  } catch (err) {
    if (err instanceof InsufficientBalance) throw ValidationError.field('amount', msg('money.belowZero'));
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw ValidationError.field('user_id', msg('errors.notFound'));
    throw err;
  }
}

export const adjustFromBody = (ctx: AppContext, actor: { id: number }, body: AdjustBalanceBody) =>
  adjustBalance(ctx, {
    actor,
    userId: body.user_id,
    amount: body.amount,
    reason: body.reason,
    idempotencyKey: body.idempotency_key,
  });
