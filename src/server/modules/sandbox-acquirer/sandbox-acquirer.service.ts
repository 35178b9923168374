// The built-in sandbox payment provider (docs/decisions/0400), written as if it were a third party: a card
// acquirer with a tokenizer and a confirmation step, and a crypto processor with invoices and signed
// webhooks. Its state is its own tables (sandbox_*), so it survives restarts and serves every instance.
// Our money module talks to it only through its provider adapter (money/providers/sandbox.ts), the
// browser through the routes under /sandbox-acquirer/. It never stores a card number: a token keeps
// the last four digits and the test behaviour of the card.
import crypto from 'node:crypto';
import { SANDBOX_TEST_CARDS, type SandboxCardBehaviour } from '#shared/sandbox-cards.ts';
import type { AppContext } from '../../context';
import * as repo from './sandbox-acquirer.repo';

/** The test cards (the acquirer's documentation, as real ones publish theirs). */
const TEST_CARDS: Record<string, SandboxCardBehaviour> = Object.fromEntries(
  SANDBOX_TEST_CARDS.map((c) => [c.number, c.behaviour]),
);

/** A confirmation step or an unpaid invoice lapses after this long. */
export const SANDBOX_EXPIRY_MINUTES = 60;
/** Fixed sandbox rate: 1 BTC = 50,000.00 of any currency. */
const MINOR_PER_BTC = 5_000_000;

export class SandboxError extends Error {
  constructor(
    readonly code: 'invalid_number' | 'invalid_expiry' | 'invalid_cvc' | 'no_such_token' | 'no_such_object',
    readonly field: string,
  ) {
    super(code);
    this.name = 'SandboxError';
  }
}

const newId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('base64url')}`;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

/** POST /sandbox-acquirer/v1/tokens: a card becomes a reusable token; the number is not kept. */
export async function tokenize(ctx: AppContext, card: CardInput) {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) throw new SandboxError('invalid_number', 'number');
  const behaviour = TEST_CARDS[number];
  // Like a real test mode: only the published test cards work.
  if (!behaviour) throw new SandboxError('invalid_number', 'number');
  const now = ctx.now();
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  const expired =
    year < now.getUTCFullYear() || (year === now.getUTCFullYear() && card.exp_month < now.getUTCMonth() + 1);
  if (expired || year > now.getUTCFullYear() + 20) throw new SandboxError('invalid_expiry', 'exp_year');
  if (!/^\d{3,4}$/.test(card.cvc)) throw new SandboxError('invalid_cvc', 'cvc');
  const row = await repo.insertToken(ctx.db, {
    id: newId('tok'),
    last4: number.slice(-4),
    brand: 'visa',
    expMonth: card.exp_month,
    expYear: year,
    behaviour,
    createdAt: now,
  });
  return { id: row.id, card: { last4: row.last4, brand: row.brand, exp_month: row.expMonth, exp_year: row.expYear } };
}

export type SandboxCharge = repo.ChargeRow & { last4: string | null };

async function withLast4(ctx: AppContext, charge: repo.ChargeRow): Promise<SandboxCharge> {
  const last4 = await repo.last4OfToken(ctx.db, charge.tokenId);
  // A challenge nobody answered lapses, as 3-D Secure sessions do.
  if (
    charge.status === 'requires_action' &&
    ctx.now().getTime() - charge.createdAt.getTime() > SANDBOX_EXPIRY_MINUTES * 60_000
  ) {
    const lapsed = await repo.updateCharge(ctx.db, charge.id, {
      status: 'failed',
      failureCode: 'authentication_expired',
      updatedAt: ctx.now(),
    });
    return { ...lapsed, last4 };
  }
  return { ...charge, last4 };
}

/** A charge; the merchant's idempotency key makes a retry answer the first charge. */
export async function createCharge(
  ctx: AppContext,
  input: { idempotencyKey: string; token: string; amount: number; currency: string; returnUrl: string | null },
): Promise<SandboxCharge> {
  const token = await repo.tokenById(ctx.db, input.token);
  const existing = await chargeByKey(ctx, input.idempotencyKey);
  if (existing) return existing;
  if (!token) throw new SandboxError('no_such_token', 'card_token');
  const status =
    token.behaviour === 'succeed' ? 'succeeded' : token.behaviour === 'decline' ? 'failed' : 'requires_action';
  await repo.insertCharge(ctx.db, {
    id: newId('ch'),
    idempotencyKey: input.idempotencyKey,
    tokenId: token.id,
    amount: input.amount,
    currency: input.currency,
    status,
    failureCode: status === 'failed' ? 'card_declined' : null,
    returnUrl: input.returnUrl,
    createdAt: ctx.now(),
    updatedAt: ctx.now(),
  });
  return (await chargeByKey(ctx, input.idempotencyKey))!;
}

export async function chargeByKey(ctx: AppContext, idempotencyKey: string): Promise<SandboxCharge | null> {
  const row = await repo.chargeByKey(ctx.db, idempotencyKey);
  return row ? withLast4(ctx, row) : null;
}

export async function chargeById(ctx: AppContext, id: string): Promise<SandboxCharge | null> {
  const row = await repo.chargeById(ctx.db, id);
  return row ? withLast4(ctx, row) : null;
}

/** The cardholder answers the confirmation step. Only a pending step can be answered. */
export async function answerChallenge(ctx: AppContext, chargeId: string, approve: boolean) {
  const charge = await chargeById(ctx, chargeId);
  if (!charge) throw new SandboxError('no_such_object', 'charge');
  if (charge.status !== 'requires_action') return charge;
  const row = await repo.updateCharge(
    ctx.db,
    chargeId,
    approve
      ? { status: 'succeeded', updatedAt: ctx.now() }
      : { status: 'failed', failureCode: 'authentication_failed', updatedAt: ctx.now() },
  );
  return withLast4(ctx, row);
}

// ---------------------------------------------------------------- crypto

export type SandboxInvoice = repo.InvoiceRow;

function cryptoAmount(amount: number) {
  return (amount / MINOR_PER_BTC).toFixed(8);
}

const lapse = (ctx: AppContext, invoice: SandboxInvoice): SandboxInvoice =>
  invoice.status === 'new' && invoice.expiresAt <= ctx.now() ? { ...invoice, status: 'expired' } : invoice;

export async function createInvoice(
  ctx: AppContext,
  input: { orderId: string; amount: number; currency: string },
): Promise<SandboxInvoice> {
  const id = newId('inv');
  await repo.insertInvoice(ctx.db, {
    id,
    orderId: input.orderId,
    amount: input.amount,
    currency: input.currency,
    // A testnet-looking address that belongs to nobody.
    address: `tb1q${crypto.createHash('sha256').update(id).digest('hex').slice(0, 38)}`,
    cryptoAmount: cryptoAmount(input.amount),
    status: 'new',
    expiresAt: new Date(ctx.now().getTime() + SANDBOX_EXPIRY_MINUTES * 60_000),
    createdAt: ctx.now(),
  });
  return (await invoiceByOrder(ctx, input.orderId))!;
}

export async function invoiceByOrder(ctx: AppContext, orderId: string) {
  const row = await repo.invoiceByOrder(ctx.db, orderId);
  return row ? lapse(ctx, row) : null;
}

export async function invoiceById(ctx: AppContext, id: string) {
  const row = await repo.invoiceById(ctx.db, id);
  return row ? lapse(ctx, row) : null;
}

/** The secret both sides of the sandbox webhook know (derived from the server secret). */
export function webhookSecret(ctx: AppContext) {
  return crypto.createHmac('sha256', ctx.secret).update('sandbox-acquirer webhook').digest('hex');
}

export function signWebhook(ctx: AppContext, body: string) {
  return `sha256=${crypto.createHmac('sha256', webhookSecret(ctx)).update(body).digest('hex')}`;
}

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/**
 * "Simulate payment" (sandbox only): the invoice is paid now, even after its expiry (a late payment, as
 * on a real chain). Returns the signed webhook the processor then delivers.
 */
export async function simulateInvoicePayment(ctx: AppContext, id: string) {
  const invoice = await invoiceById(ctx, id);
  if (!invoice) throw new SandboxError('no_such_object', 'invoice');
  await repo.settleInvoice(ctx.db, id);
  const body = JSON.stringify({
    id: newId('evt'),
    type: 'invoice.settled',
    created: Math.floor(ctx.now().getTime() / 1000),
    data: { invoice_id: invoice.id, order_id: invoice.orderId, amount: invoice.amount, currency: invoice.currency },
  });
  return { body, signature: signWebhook(ctx, body) };
}
