// The built-in sandbox payment provider (docs/decisions/0400), written as if it were a third party: a card
// acquirer with a tokenizer and a confirmation step, and a crypto processor with invoices and signed
// webhooks. Its state is its own tables (sandbox_*), so it survives restarts and serves every instance.
// Our money module talks to it only through its provider adapter (money/providers/sandbox.ts), the
// browser through the routes under /sandbox-acquirer/ (its payment page, its confirmation step). It never
// stores a card number: a token keeps the last four digits and the test behaviour of the card.
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
    readonly code:
      'invalid_number' | 'invalid_expiry' | 'invalid_cvc' | 'no_such_token' | 'no_such_object' | 'amount_too_large',
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

// ---------------------------------------------------------------- hosted payment page
// What a real acquirer's hosted page does (docs/decisions/0421): the merchant sends the payer to a signed
// page URL; the card is entered there, never on the merchant's pages; the outcome reaches the merchant
// only as a signed server-to-server notification (the merchant's read-back does not show the charge
// before it). A sandbox control holds the notification back until it is released.

/** What the merchant signs into the page's address. */
export interface PageOrder {
  /** The merchant's key of the payment (`pay_<id>`): one charge per key. */
  key: string;
  amount: number;
  currency: string;
  /** Where the payer goes back to (the merchant's screen, with ?payment={id}). */
  returnUrl: string;
  /** Unix seconds after which the page takes no card. */
  expires: number;
}

/** The merchant's page key, shared by both sides of the sandbox (derived from the server secret). */
function pageKey(ctx: AppContext) {
  return crypto.createHmac('sha256', ctx.secret).update('sandbox-acquirer page').digest();
}

const PAGE_FIELDS = ['key', 'amount', 'currency', 'return', 'expires'] as const;

function pageSignature(ctx: AppContext, params: Record<(typeof PAGE_FIELDS)[number], string>) {
  const canonical = PAGE_FIELDS.map((k) => `${k}=${params[k]}`).join('&');
  return crypto.createHmac('sha256', pageKey(ctx)).update(canonical).digest('hex');
}

const pageParams = (order: PageOrder) => ({
  key: order.key,
  amount: String(order.amount),
  currency: order.currency,
  return: order.returnUrl,
  expires: String(order.expires),
});

/** The signed address of the payment page of `order` (a path of this server, under /sandbox-acquirer/). */
export function pageUrl(ctx: AppContext, order: PageOrder): string {
  const params = pageParams(order);
  const query = new URLSearchParams({ ...params, signature: pageSignature(ctx, params) });
  return `/sandbox-acquirer/v1/pay?${query.toString()}`;
}

/** The hidden fields that carry the signed order through the page's form. */
export function pageFields(ctx: AppContext, order: PageOrder): Record<string, string> {
  const params = pageParams(order);
  return { ...params, signature: pageSignature(ctx, params) };
}

/** The order of a page address or form, or null when it is not signed by the merchant's key. */
export function readPage(ctx: AppContext, query: Record<string, unknown>): PageOrder | null {
  const params: Record<string, string> = {};
  for (const k of [...PAGE_FIELDS, 'signature']) {
    const v = query[k];
    if (typeof v !== 'string' || v.length > 1000) return null;
    params[k] = v;
  }
  const expected = pageSignature(ctx, params as Record<(typeof PAGE_FIELDS)[number], string>);
  const sent = params.signature;
  if (sent.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected))) return null;
  if (!/^\d{1,12}$/.test(params.amount) || !/^\d{1,12}$/.test(params.expires)) return null;
  return {
    key: params.key,
    amount: Number(params.amount),
    currency: params.currency,
    returnUrl: params.return,
    expires: Number(params.expires),
  };
}

export const pageExpired = (ctx: AppContext, order: PageOrder) => ctx.now().getTime() > order.expires * 1000;

/**
 * The payer submits the page: the card is checked as the tokenizer does (the number is not kept), then
 * charged once per merchant key. A second submit answers the first charge. `hold` is the sandbox control
 * that keeps the notification back.
 */
export async function payOnPage(
  ctx: AppContext,
  order: PageOrder,
  card: { token: string } | CardInput,
  hold: boolean,
): Promise<{ charge: SandboxCharge; token: string }> {
  const existing = await chargeByKey(ctx, order.key);
  if (existing) return { charge: existing, token: existing.tokenId };
  const tokenId = 'token' in card ? card.token : (await tokenize(ctx, card)).id;
  const token = await repo.tokenById(ctx.db, tokenId);
  if (!token) throw new SandboxError('no_such_token', 'card_token');
  const status =
    token.behaviour === 'succeed' ? 'succeeded' : token.behaviour === 'decline' ? 'failed' : 'requires_action';
  await repo.insertCharge(ctx.db, {
    id: newId('ch'),
    idempotencyKey: order.key,
    tokenId: token.id,
    amount: order.amount,
    currency: order.currency,
    status,
    failureCode: status === 'failed' ? 'card_declined' : null,
    returnUrl: order.returnUrl,
    hosted: true,
    notificationHeld: hold,
    createdAt: ctx.now(),
    updatedAt: ctx.now(),
  });
  return { charge: (await chargeByKey(ctx, order.key))!, token: token.id };
}

/** The card a token stands for, as the page may show it (last four digits), or null. */
export async function savedCard(ctx: AppContext, tokenId: string | undefined) {
  if (!tokenId || tokenId.length > 100) return null;
  const token = await repo.tokenById(ctx.db, tokenId);
  return token ? { token: token.id, last4: token.last4 } : null;
}

/** A settled hosted charge's notification is sent now, unless held (the sandbox control). */
export const notifiesNow = (charge: SandboxCharge) =>
  charge.hosted && charge.status !== 'requires_action' && !charge.notificationHeld;

/**
 * The signed notification of a settled hosted charge. Its id is the charge's (the sandbox's transaction
 * id): sent again, it is the same notification. Sending it releases a held one and marks it sent, after
 * which the merchant's read-back shows the charge.
 */
export async function chargeNotification(ctx: AppContext, chargeId: string) {
  const charge = await chargeById(ctx, chargeId);
  if (!charge || !charge.hosted) throw new SandboxError('no_such_object', 'charge');
  if (charge.status === 'requires_action') throw new SandboxError('no_such_object', 'notification');
  await repo.markNotified(ctx.db, charge.id, charge.notifiedAt ?? ctx.now());
  const body = JSON.stringify({
    id: `charge:${charge.id}`,
    type: charge.status === 'succeeded' ? 'charge.succeeded' : 'charge.failed',
    created: Math.floor(ctx.now().getTime() / 1000),
    data: {
      charge_id: charge.id,
      order_id: charge.idempotencyKey,
      amount: charge.amount,
      currency: charge.currency,
      status: charge.status,
      failure_code: charge.failureCode,
      last4: charge.last4,
    },
  });
  return { charge, body, signature: signWebhook(ctx, body) };
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

// ---------------------------------------------------------------- refunds and chargebacks

/**
 * The refund API (docs/decisions/0423): refunds `amount` of a succeeded charge or a settled invoice, once
 * per merchant key (the same key answers the first refund), never more than it took in all. Serialised
 * per charge by a transaction-scoped advisory lock, so two keys cannot both take the last of it.
 */
export async function refund(ctx: AppContext, input: { paymentRef: string; amount: number; key: string }) {
  return ctx.db.transaction(async (tx) => {
    await repo.lockRefundsOf(tx, input.paymentRef);
    const prior = await repo.refundByKey(tx, input.key);
    if (prior) return prior;
    const charge = input.paymentRef.startsWith('ch_') ? await repo.chargeById(tx, input.paymentRef) : undefined;
    const invoice = charge ? undefined : await repo.invoiceById(tx, input.paymentRef);
    const taken =
      charge?.status === 'succeeded' ? charge.amount : invoice?.status === 'settled' ? invoice.amount : null;
    if (taken === null) throw new SandboxError('no_such_object', 'payment_ref');
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new SandboxError('amount_too_large', 'amount');
    if ((await repo.refundedOf(tx, input.paymentRef)) + input.amount > taken)
      throw new SandboxError('amount_too_large', 'amount');
    await repo.insertRefund(tx, {
      id: newId('re'),
      idempotencyKey: input.key,
      paymentRef: input.paymentRef,
      amount: input.amount,
      createdAt: ctx.now(),
    });
    return (await repo.refundByKey(tx, input.key))!;
  });
}

/**
 * A chargeback of a succeeded charge, as the card schemes send them weeks later (a sandbox control: the
 * tests and the demo call it). Returns the signed notification the acquirer then delivers; its id is the
 * dispute's, so a redelivery is the same notification.
 */
export async function chargebackNotification(ctx: AppContext, chargeId: string, amount?: number) {
  const charge = await chargeById(ctx, chargeId);
  if (!charge || charge.status !== 'succeeded') throw new SandboxError('no_such_object', 'charge');
  const disputed = amount ?? charge.amount;
  if (!Number.isSafeInteger(disputed) || disputed <= 0 || disputed > charge.amount)
    throw new SandboxError('amount_too_large', 'amount');
  const id = newId('dp');
  const body = JSON.stringify({
    id: `dispute:${id}`,
    type: 'charge.dispute.lost',
    created: Math.floor(ctx.now().getTime() / 1000),
    data: {
      dispute_id: id,
      charge_id: charge.id,
      order_id: charge.idempotencyKey,
      amount: disputed,
      currency: charge.currency,
    },
  });
  return { body, signature: signWebhook(ctx, body) };
}
