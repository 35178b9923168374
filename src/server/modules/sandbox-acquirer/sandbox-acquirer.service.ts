// The built-in sandbox payment provider (docs/decisions/0400), written as if it were a third party: a card
// acquirer with a tokenizer and a confirmation step, and a crypto processor with invoices and signed
// webhooks. Its state is its own tables (sandbox_*), so it survives restarts and serves every instance.
// Our money module talks to it only through its provider adapter (money/providers/sandbox.ts), the
// browser through the routes under /sandbox-acquirer/. It never stores a card number: a token keeps
// the last four digits and the test behaviour of the card.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SANDBOX_TEST_CARDS, type SandboxCardBehaviour } from '#shared/sandbox-cards.ts';
import type { AppContext } from '../../context';
import { sandboxCardTokens, sandboxCharges, sandboxInvoices } from '../../db/schema';

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
  const [row] = await ctx.db
    .insert(sandboxCardTokens)
    .values({
      id: newId('tok'),
      last4: number.slice(-4),
      brand: 'visa',
      expMonth: card.exp_month,
      expYear: year,
      behaviour,
      createdAt: now,
    })
    .returning();
  return { id: row.id, card: { last4: row.last4, brand: row.brand, exp_month: row.expMonth, exp_year: row.expYear } };
}

export type SandboxCharge = typeof sandboxCharges.$inferSelect & { last4: string | null };

async function withLast4(ctx: AppContext, charge: typeof sandboxCharges.$inferSelect): Promise<SandboxCharge> {
  const [token] = await ctx.db
    .select({ last4: sandboxCardTokens.last4 })
    .from(sandboxCardTokens)
    .where(eq(sandboxCardTokens.id, charge.tokenId));
  // A challenge nobody answered lapses, as 3-D Secure sessions do.
  if (
    charge.status === 'requires_action' &&
    ctx.now().getTime() - charge.createdAt.getTime() > SANDBOX_EXPIRY_MINUTES * 60_000
  ) {
    const [lapsed] = await ctx.db
      .update(sandboxCharges)
      .set({ status: 'failed', failureCode: 'authentication_expired', updatedAt: ctx.now() })
      .where(eq(sandboxCharges.id, charge.id))
      .returning();
    return { ...lapsed, last4: token?.last4 ?? null };
  }
  return { ...charge, last4: token?.last4 ?? null };
}

/** A charge; the merchant's idempotency key makes a retry answer the first charge. */
export async function createCharge(
  ctx: AppContext,
  input: { idempotencyKey: string; token: string; amount: number; currency: string; returnUrl: string | null },
): Promise<SandboxCharge> {
  const [token] = await ctx.db.select().from(sandboxCardTokens).where(eq(sandboxCardTokens.id, input.token));
  const existing = await chargeByKey(ctx, input.idempotencyKey);
  if (existing) return existing;
  if (!token) throw new SandboxError('no_such_token', 'card_token');
  const status =
    token.behaviour === 'succeed' ? 'succeeded' : token.behaviour === 'decline' ? 'failed' : 'requires_action';
  await ctx.db
    .insert(sandboxCharges)
    .values({
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
    })
    .onConflictDoNothing();
  return (await chargeByKey(ctx, input.idempotencyKey))!;
}

export async function chargeByKey(ctx: AppContext, idempotencyKey: string): Promise<SandboxCharge | null> {
  const [row] = await ctx.db.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, idempotencyKey));
  return row ? withLast4(ctx, row) : null;
}

export async function chargeById(ctx: AppContext, id: string): Promise<SandboxCharge | null> {
  const [row] = await ctx.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, id));
  return row ? withLast4(ctx, row) : null;
}

/** The cardholder answers the confirmation step. Only a pending step can be answered. */
export async function answerChallenge(ctx: AppContext, chargeId: string, approve: boolean) {
  const charge = await chargeById(ctx, chargeId);
  if (!charge) throw new SandboxError('no_such_object', 'charge');
  if (charge.status !== 'requires_action') return charge;
  const [row] = await ctx.db
    .update(sandboxCharges)
    .set(
      approve
        ? { status: 'succeeded', updatedAt: ctx.now() }
        : { status: 'failed', failureCode: 'authentication_failed', updatedAt: ctx.now() },
    )
    .where(eq(sandboxCharges.id, chargeId))
    .returning();
  return withLast4(ctx, row);
}

// ---------------------------------------------------------------- crypto

export type SandboxInvoice = typeof sandboxInvoices.$inferSelect;

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
  await ctx.db
    .insert(sandboxInvoices)
    .values({
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
    })
    .onConflictDoNothing();
  return (await invoiceByOrder(ctx, input.orderId))!;
}

export async function invoiceByOrder(ctx: AppContext, orderId: string) {
  const [row] = await ctx.db.select().from(sandboxInvoices).where(eq(sandboxInvoices.orderId, orderId));
  return row ? lapse(ctx, row) : null;
}

export async function invoiceById(ctx: AppContext, id: string) {
  const [row] = await ctx.db.select().from(sandboxInvoices).where(eq(sandboxInvoices.id, id));
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
  await ctx.db.update(sandboxInvoices).set({ status: 'settled' }).where(eq(sandboxInvoices.id, id));
  const body = JSON.stringify({
    id: newId('evt'),
    type: 'invoice.settled',
    created: Math.floor(ctx.now().getTime() / 1000),
    data: { invoice_id: invoice.id, order_id: invoice.orderId, amount: invoice.amount, currency: invoice.currency },
  });
  return { body, signature: signWebhook(ctx, body) };
}
