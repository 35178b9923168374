// Adapters to the built-in sandbox provider (modules/sandbox-acquirer): what an SDK of a real acquirer
// would be. The sandbox runs in this process, so "calling its API" is calling its service.
import crypto from 'node:crypto';
import type { AppContext } from '../../../context';
import * as sandbox from '../../sandbox-acquirer/sandbox-acquirer.service';
import { paymentIdOfKey, WebhookRejected, type PaymentProvider, type ProviderState } from './provider';

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

export function sandboxCard(ctx: AppContext): PaymentProvider {
  return {
    name: 'sandbox',
    method: 'card',
    sandbox: true,
    tokenizeUrl: `${SANDBOX_BASE}/tokens`,
    async start(input) {
      try {
        const charge = await sandbox.createCharge(ctx, {
          idempotencyKey: input.idempotencyKey,
          token: input.cardToken ?? '',
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
    async fetch(payment) {
      const charge = await sandbox.chargeByKey(ctx, payment.idempotencyKey);
      return charge ? chargeState(charge) : null;
    },
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
    parseWebhook(rawBody, headers) {
      const sent = headers[sandbox.SANDBOX_SIGNATURE_HEADER];
      if (typeof sent !== 'string') throw new WebhookRejected(401, 'no signature');
      const expected = sandbox.signWebhook(ctx, rawBody.toString('utf8'));
      if (sent.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected)))
        throw new WebhookRejected(401, 'bad signature');
      let event: { id?: unknown; type?: unknown; data?: { invoice_id?: unknown; order_id?: unknown } };
      try {
        event = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new WebhookRejected(400, 'not JSON');
      }
      if (typeof event.id !== 'string' || typeof event.type !== 'string') throw new WebhookRejected(400, 'no event id');
      return {
        id: event.id,
        type: event.type,
        ref: typeof event.data?.invoice_id === 'string' ? event.data.invoice_id : null,
        paymentId: paymentIdOfKey(event.data?.order_id),
      };
    },
  };
}
