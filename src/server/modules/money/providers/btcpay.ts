// BTCPay Server (self-hosted crypto processor) over its Greenfield API (docs/decisions/0400):
//   POST /api/v1/stores/{storeId}/invoices                       create an invoice (amount as a decimal string)
//   GET  /api/v1/stores/{storeId}/invoices?orderId=...           find ours by order id (a retried start)
//   GET  /api/v1/stores/{storeId}/invoices/{invoiceId}           its status: New, Processing, Settled, Expired, Invalid
//                                                               (additionalStatus PaidLate: paid after expiry)
//   GET  /api/v1/stores/{storeId}/invoices/{invoiceId}/payment-methods   address (destination) and amount due
//   POST /api/v1/stores/{storeId}/invoices/{invoiceId}/refund    a refund: {name, description, refundVariant:
//                                                               "Custom", customAmount, customCurrency} -> a pull
//                                                               payment (its viewLink is where the buyer claims it)
//   GET  /api/v1/stores/{storeId}/pull-payments?includeArchived=true   ours by name (a retried refund)
// Webhooks carry `BTCPay-Sig: sha256=<HMAC-SHA256 hex of the raw body with the webhook secret>`; a redelivery
// has a new deliveryId and the first one in originalDeliveryId. The event is only a hint: the invoice's
// state is always read back from the API before anything is credited.
import crypto from 'node:crypto';
import type { Env } from '../../../env';
import {
  paymentIdOfKey,
  ProviderUnavailable,
  RefundRefused,
  WebhookRejected,
  type PaymentProvider,
  type ProviderState,
  type StartInput,
} from './provider';

const EXPIRY_MINUTES = 60;

interface Invoice {
  id: string;
  status: string;
  additionalStatus?: string;
  amount: string;
  currency: string;
  checkoutLink?: string | null;
  expirationTime?: number;
  metadata?: { orderId?: string };
}
/** A pull payment (what a refund makes). */
interface PullPayment {
  id: string;
  name?: string | null;
  viewLink?: string | null;
}
/** One entry of /payment-methods: `paymentMethod` and `cryptoCode` in 1.x, `paymentMethodId` and `currency` in 2.x. */
interface PaymentMethod {
  paymentMethodId?: string;
  paymentMethod?: string;
  currency?: string;
  cryptoCode?: string;
  destination?: string;
  amount?: string;
  due?: string;
  payments?: Array<{ id?: string; value?: string; status?: string }>;
}

export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}
export const toDecimal = (minor: number, currency: string) =>
  (minor / 10 ** minorDigits(currency)).toFixed(minorDigits(currency));
export const fromDecimal = (value: string, currency: string) => Math.round(Number(value) * 10 ** minorDigits(currency));

export function btcpay(env: Env): PaymentProvider {
  const base = env.BTCPAY_URL!.replace(/\/+$/, '');
  const store = encodeURIComponent(env.BTCPAY_STORE_ID!);
  const secret = env.BTCPAY_WEBHOOK_SECRET!;

  /** `refusal`: a 400, 404 or 422 is BTCPay refusing the request (RefundRefused), not an outage. */
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, refusal = false): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${base}/api/v1/stores/${store}${path}`, {
        method,
        headers: { authorization: `token ${env.BTCPAY_API_KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new ProviderUnavailable(`BTCPay unreachable: ${(err as Error).message}`);
    }
    if (refusal && [400, 404, 422].includes(res.status)) throw new RefundRefused(`BTCPay answered ${res.status}`);
    if (!res.ok) throw new ProviderUnavailable(`BTCPay answered ${res.status} to ${method} ${path}`);
    return (await res.json()) as T;
  }

  async function state(invoice: Invoice): Promise<ProviderState> {
    const methods = await call<PaymentMethod[]>('GET', `/invoices/${encodeURIComponent(invoice.id)}/payment-methods`);
    const btc = methods.find((m) => (m.paymentMethodId ?? m.paymentMethod ?? '').startsWith('BTC')) ?? methods[0];
    // Money received after the invoice expired is still the advertiser's (as with the sandbox): credited once
    // every payment to it has confirmed (BTCPay leaves such an invoice Expired with PaidLate).
    const payments = methods.flatMap((m) => m.payments ?? []);
    const paidLate =
      invoice.status === 'Expired' &&
      invoice.additionalStatus === 'PaidLate' &&
      payments.length > 0 &&
      payments.every((p) => p.status === 'Settled');
    const status: ProviderState['status'] =
      invoice.status === 'Settled' || paidLate
        ? 'succeeded'
        : invoice.status === 'Expired'
          ? 'expired'
          : invoice.status === 'Invalid'
            ? 'failed'
            : 'pending';
    return {
      status,
      ref: invoice.id,
      amount: fromDecimal(invoice.amount, invoice.currency),
      ...(status === 'expired' || status === 'failed' ? { failure: invoice.status.toLowerCase() } : {}),
      invoice: {
        address: btc?.destination ?? '',
        crypto_amount: btc?.due ?? btc?.amount ?? '',
        crypto_currency: btc?.currency ?? btc?.cryptoCode ?? 'BTC',
        checkout_url: invoice.checkoutLink ?? null,
        expires_at: new Date((invoice.expirationTime ?? 0) * 1000).toISOString(),
      },
    };
  }

  async function findByOrder(orderId: string) {
    const found = await call<Invoice[]>('GET', `/invoices?orderId=${encodeURIComponent(orderId)}`);
    return found.find((i) => i.metadata?.orderId === orderId) ?? null;
  }

  return {
    name: 'btcpay',
    method: 'crypto',
    sandbox: false,
    async start(input: StartInput) {
      const existing = await findByOrder(input.idempotencyKey);
      const invoice =
        existing ??
        (await call<Invoice>('POST', '/invoices', {
          amount: toDecimal(input.amount, input.currency),
          currency: input.currency,
          metadata: { orderId: input.idempotencyKey },
          checkout: { expirationMinutes: EXPIRY_MINUTES, redirectURL: input.returnUrl },
        }));
      return state(invoice);
    },
    async fetch(payment) {
      const invoice = payment.providerRef
        ? await call<Invoice>('GET', `/invoices/${encodeURIComponent(payment.providerRef)}`)
        : await findByOrder(payment.idempotencyKey);
      return invoice ? state(invoice) : null;
    },
    // A refund is a pull payment the buyer claims with an address (decision 0423); BTCPay takes no
    // idempotency key, so ours is its name, and a retry finds it before making another.
    async refund(input) {
      const name = `refund ${input.key}`;
      const made = await call<PullPayment[]>('GET', '/pull-payments?includeArchived=true');
      const found = made.find((p) => p.name === name);
      if (found) return { id: found.id, link: found.viewLink ?? null };
      const pull = await call<PullPayment>(
        'POST',
        `/invoices/${encodeURIComponent(input.providerRef)}/refund`,
        {
          name,
          description: 'Refund of advertising credits',
          refundVariant: 'Custom',
          customAmount: toDecimal(input.amount, input.currency),
          customCurrency: input.currency,
        },
        true,
      );
      return { id: pull.id, link: pull.viewLink ?? null };
    },
    parseWebhook(rawBody, headers) {
      const sent = headers['btcpay-sig'];
      if (typeof sent !== 'string') throw new WebhookRejected(401, 'no BTCPay-Sig');
      const expected = `sha256=${crypto.createHmac('sha256', secret).update(rawBody).digest('hex')}`;
      if (sent.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected)))
        throw new WebhookRejected(401, 'bad BTCPay-Sig');
      let event: {
        deliveryId?: unknown;
        originalDeliveryId?: unknown;
        type?: unknown;
        storeId?: unknown;
        invoiceId?: unknown;
        metadata?: { orderId?: unknown };
      };
      try {
        event = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new WebhookRejected(400, 'not JSON');
      }
      const id =
        typeof event.originalDeliveryId === 'string' && event.originalDeliveryId
          ? event.originalDeliveryId
          : event.deliveryId;
      if (typeof id !== 'string' || typeof event.type !== 'string') throw new WebhookRejected(400, 'no delivery id');
      if (event.storeId !== undefined && event.storeId !== env.BTCPAY_STORE_ID)
        throw new WebhookRejected(400, 'other store');
      return {
        id,
        type: event.type,
        ref: typeof event.invoiceId === 'string' ? event.invoiceId : null,
        paymentId: paymentIdOfKey(event.metadata?.orderId),
      };
    },
  };
}
