// Bank transfer (DESIGN.md "Money"; /edit/load/{id}): each advertiser writes their own reference on the
// transfer; an admin records the amount received by that reference, which credits it once per bank
// transaction id.
import { msg } from '#shared/api/messages.ts';
import type { BankDetails, RecordBankTransferBody } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../../db/client';
import { writeAudit } from '../../db/audit';
import { notFound, ValidationError } from '../../lib/errors';
import { atomically } from './atomic';
import { balanceOf, lockMoney, transactionByKey, transfer } from './ledger';
import * as repo from './money.repo';

/** DIR + the account id (6 digits or more) + 2 check digits (ISO 7064 mod 97-10, as in IBANs): a typo is caught. */
export function bankReference(userId: number): string {
  const body = String(userId).padStart(6, '0');
  const check = 98 - Number(BigInt(`${body}00`) % 97n);
  return `DIR${body}${String(check).padStart(2, '0')}`;
}

export function userOfReference(reference: string): number | null {
  const m = /^DIR(\d{6,10})(\d{2})$/.exec(reference.toUpperCase().replace(/[\s-]/g, ''));
  if (!m) return null;
  const userId = Number(m[1]);
  return userId > 0 && bankReference(userId) === `DIR${m[1]}${m[2]}` ? userId : null;
}

/**
 * Bank transfer is offered with a real account (BANK_IBAN), and outside production with the sandbox's
 * placeholder; a production site without an account offers no transfer at all (issue 45 item 2).
 */
export const bankOffered = (env: AppContext['env']) => !!env.BANK_IBAN || env.NODE_ENV !== 'production';

export function getBankDetails(ctx: AppContext, userId: number): BankDetails {
  const e = ctx.env;
  if (!bankOffered(e)) throw notFound(msg('money.bankNotOffered'));
  const configured = !!e.BANK_IBAN;
  return {
    reference: bankReference(userId),
    holder: e.BANK_ACCOUNT_HOLDER ?? 'Directory (sandbox account)',
    iban: e.BANK_IBAN ?? 'XX00 SANDBOX 0000 0000 00',
    bic: e.BANK_BIC ?? 'SANDXXXX',
    bank_name: e.BANK_NAME ?? 'Sandbox Bank',
    currency: e.SITE_CURRENCY,
    minimum_topup: e.MIN_TOPUP,
    sandbox: !configured,
  };
}

/** Admin: credits a received transfer. The same bank transaction id again changes nothing. */
export async function recordBankTransfer(
  ctx: AppContext,
  actor: { id: number },
  body: RecordBankTransferBody,
): Promise<{ user_id: number; balance: number; transaction_id: number; duplicate: boolean }> {
  const userId = userOfReference(body.reference);
  if (!userId) throw ValidationError.field('reference', msg('money.bankReferenceUnknown'));
  const now = ctx.now();
  try {
    return await atomically(ctx, async (tx) => {
      const lock = await lockMoney(tx, [userId], ['cash']);
      const payment = await repo.insertPayment(tx, {
        userId,
        method: 'bank',
        provider: 'bank',
        providerRef: body.bank_transaction_id,
        amount: body.amount,
        currency: ctx.env.SITE_CURRENCY,
        status: 'succeeded',
        details: { reference: bankReference(userId), recordedBy: actor.id },
        createdAt: now,
        updatedAt: now,
        settledAt: now,
      });
      if (!payment) {
        const prior = (await repo.bankPayment(tx, body.bank_transaction_id))!;
        if (prior.userId !== userId || prior.amount !== body.amount)
          throw ValidationError.field('bank_transaction_id', msg('money.idempotencyConflict'));
        const txn = await transactionByKey(tx, `payment:${prior.id}`);
        return {
          user_id: userId,
          balance: await balanceOf(tx, userId),
          transaction_id: Number(txn?.id ?? 0),
          duplicate: true,
        };
      }
      const { transactionId, balanceOf: after } = await transfer(tx, lock, {
        kind: 'load',
        idempotencyKey: `payment:${payment.id}`,
        userId,
        paymentId: payment.id,
        createdBy: actor.id,
        memo: `bank ${body.bank_transaction_id}`,
        at: now,
        from: 'cash',
        to: { user: userId },
        amount: body.amount,
      });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'money.bank_transfer',
        targetUserId: userId,
        data: { amount: body.amount, bank_transaction_id: body.bank_transaction_id, payment_id: payment.id },
        at: now,
      });
      return {
        user_id: userId,
        balance: after({ user: userId }),
        transaction_id: transactionId,
        duplicate: false,
      };
    });
  } catch (err) {
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION)
      throw ValidationError.field('reference', msg('money.bankReferenceUnknown'));
    throw err;
  }
}
