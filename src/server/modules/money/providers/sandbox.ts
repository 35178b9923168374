// Adapters to the built-in sandbox provider (modules/sandbox-acquirer): what an SDK of a real acquirer
// would be. The sandbox runs in this process, so "calling its API" is calling its service; its page and
// its notifications go through HTTP as a real acquirer's do.
import crypto from 'node:crypto';
import type { AppContext } from '../../../context';
import * as sandbox from '../../sandbox-acquirer/sandbox-acquirer.service';
import {
  paymentIdOfKey,
  RefundRefused,
  WebhookRejected,
  type PaymentProvider,
  type ProviderState,
  type WebhookEvent,
} from './provider';

const SANDBOX_BASE = '/sandbox-acquirer/v1';

function chargeState(charge: sandbox.SandboxCharge): ProviderState {
  return {
    status: charge.status,
    ref: charge.id,
    amount: charge.amount,
    last4: charge.last4,
    ...(charge.failureCode ? { failure: charge.failureCode } : {}),
    ...(charge.status === 'requires_action' ? { redirectUrl: `${SANDBOX_BASE}/challenge/${charge.id}` } : {}),
  };
}

/** A hosted page not paid (or whose notification never came) after this long is abandoned. */
export const SANDBOX_PAGE_MINUTES = sandbox.SANDBOX_EXPIRY_MINUTES;

/**
 * The card sandbox as an acquirer with a hosted payment page (docs/decisions/0421): makePayment without a
 * token answers `requires_action` with the sandbox's signed page; the charge is known to us only from its
 * signed notification. With a token (its server-to-server charge API, kept for the API's own tests and
 * the load benchmark) the charge answers at once, as before.
 */
export function sandboxCard(ctx: AppContext): PaymentProvider {
  return {
    name: 'sandbox',
    method: 'card',
    sandbox: true,
    // No tokenizeUrl: the client sends the payer to the sandbox's page (`methods.card.hosted`).
    async start(input) {
      if (!input.cardToken) {
        const existing = await sandbox.chargeByKey(ctx, input.idempotencyKey);
        if (existing?.hosted && existing.notifiedAt) return chargeState(existing);
        return {
          status: 'requires_action',
          ref: pageRef(input.idempotencyKey),
          redirectUrl: sandbox.pageUrl(ctx, {
            key: input.idempotencyKey,
            amount: input.amount,
            currency: input.currency,
            returnUrl: input.returnUrl,
            expires: Math.floor(ctx.now().getTime() / 1000) + SANDBOX_PAGE_MINUTES * 60,
          }),
        };
      }
      try {
        const charge = await sandbox.createCharge(ctx, {
          idempotencyKey: input.idempotencyKey,
          token: input.cardToken,
          amount: input.amount,
          currency: input.currency,
          returnUrl: input.returnUrl,
        });
        return chargeState(charge);
      } catch (err) {
        if (err instanceof sandbox.SandboxError && err.code === 'no_such_token')
          return { status: 'failed', ref: `none_${input.idempotencyKey}`, failure: 'invalid_token' };
        throw err;
      }
    },
    // A hosted charge is not shown before its notification was sent (a held one stays unknown to us): the
    // page is still open; after SANDBOX_PAGE_MINUTES it is abandoned (a late notification still credits).
    async fetch(payment) {
      const charge = await sandbox.chargeByKey(ctx, payment.idempotencyKey);
      if (charge && (!charge.hosted || charge.notifiedAt)) return chargeState(charge);
      if (!charge && !payment.providerRef) return null;
      const ref = payment.providerRef ?? pageRef(payment.idempotencyKey);
      const age = payment.createdAt ? ctx.now().getTime() - payment.createdAt.getTime() : 0;
      if (age > SANDBOX_PAGE_MINUTES * 60_000) return { status: 'expired', ref, failure: 'abandoned' };
      return { status: 'requires_action', ref };
    },
    refund: (input) => sandboxRefund(ctx, input),
    parseWebhook: (rawBody, headers) => parseSandboxWebhook(ctx, rawBody, headers),
  };
}

/** Its refund API (decision 0423): the charge's or invoice's id, idempotent by our key. */
async function sandboxRefund(ctx: AppContext, input: { providerRef: string; amount: number; key: string }) {
  try {
    const refund = await sandbox.refund(ctx, { paymentRef: input.providerRef, amount: input.amount, key: input.key });
    return { id: refund.id };
  } catch (err) {
    if (err instanceof sandbox.SandboxError) throw new RefundRefused(err.code);
    throw err;
  }
}

const pageRef = (key: string) => `page_${key}`;

/**
 * The sandbox's notifications, card and crypto alike (both are called `sandbox` and post to
 * /api/payment/webhook/sandbox): `charge.*` is the card acquirer's, carrying the charge's outcome (the
 * record, signed), `invoice.*` the crypto processor's (a hint: the invoice is read back).
 */
function parseSandboxWebhook(
  ctx: AppContext,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): WebhookEvent {
  const sent = headers[sandbox.SANDBOX_SIGNATURE_HEADER];
  if (typeof sent !== 'string') throw new WebhookRejected(401, 'no signature');
  const expected = sandbox.signWebhook(ctx, rawBody.toString('utf8'));
  if (sent.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected)))
    throw new WebhookRejected(401, 'bad signature');
  let event: { id?: unknown; type?: unknown; data?: Record<string, unknown> };
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookRejected(400, 'not JSON');
  }
  if (typeof event.id !== 'string' || typeof event.type !== 'string') throw new WebhookRejected(400, 'no event id');
  const data = event.data ?? {};
  // A chargeback (decision 0423): booked once by the dispute's id, against the charge it names.
  if (event.type === 'charge.dispute.lost') {
    const { dispute_id: id, charge_id: ref, amount } = data;
    if (
      typeof id !== 'string' ||
      typeof ref !== 'string' ||
      typeof amount !== 'number' ||
      !Number.isSafeInteger(amount)
    )
      throw new WebhookRejected(400, 'not a dispute');
    return {
      id: event.id,
      type: event.type,
      method: 'card',
      ref,
      paymentId: paymentIdOfKey(data.order_id),
      reversal: { kind: 'chargeback', id, amount },
    };
  }
  if (event.type.startsWith('charge.')) {
    const { charge_id: ref, amount, status, failure_code: failure, last4 } = data;
    if (typeof ref !== 'string' || typeof amount !== 'number' || (status !== 'succeeded' && status !== 'failed'))
      throw new WebhookRejected(400, 'not a charge');
    return {
      id: event.id,
      type: event.type,
      method: 'card',
      ref: null,
      paymentId: paymentIdOfKey(data.order_id),
      state: {
        status,
        ref,
        amount,
        last4: typeof last4 === 'string' ? last4 : null,
        ...(status === 'failed' ? { failure: typeof failure === 'string' ? failure : 'card_declined' } : {}),
      },
    };
  }
  return {
    id: event.id,
    type: event.type,
    method: 'crypto',
    ref: typeof data.invoice_id === 'string' ? data.invoice_id : null,
    paymentId: paymentIdOfKey(data.order_id),
  };
}

function invoiceState(invoice: sandbox.SandboxInvoice): ProviderState {
  const status = invoice.status === 'settled' ? 'succeeded' : invoice.status === 'expired' ? 'expired' : 'pending';
  return {
    status,
    ref: invoice.id,
    amount: invoice.amount,
    ...(status === 'expired' ? { failure: 'expired' } : {}),
    invoice: {
      address: invoice.address,
      crypto_amount: invoice.cryptoAmount,
      crypto_currency: 'BTC',
      checkout_url: null,
      expires_at: invoice.expiresAt.toISOString(),
      simulate_url: `${SANDBOX_BASE}/invoices/${invoice.id}/simulate-payment`,
    },
  };
}

export function sandboxCrypto(ctx: AppContext): PaymentProvider {
  return {
    name: 'sandbox',
    method: 'crypto',
    sandbox: true,
    async start(input) {
      return invoiceState(
        await sandbox.createInvoice(ctx, {
          orderId: input.idempotencyKey,
          amount: input.amount,
          currency: input.currency,
        }),
      );
    },
    async fetch(payment) {
      const invoice = await sandbox.invoiceByOrder(ctx, payment.idempotencyKey);
      return invoice ? invoiceState(invoice) : null;
    },
    refund: (input) => sandboxRefund(ctx, input),
    parseWebhook: (rawBody, headers) => parseSandboxWebhook(ctx, rawBody, headers),
  };
}
