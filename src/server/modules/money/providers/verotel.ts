// Verotel FlexPay (card acquirer serving adult merchants, docs/decisions/0420), as its published
// documentation (controlcenter.verotel.com/flexpay-doc, the FlexPay client libraries) describes it:
//   GET {brand}/startorder?version=4&shopID=..&type=purchase&priceAmount=nn.nn&priceCurrency=EUR
//       &description=..&referenceID=pay_<id>&paymentMethod=CC&successURL=..&declineURL=..&signature=..
//     the buyer's browser goes there: Verotel's Order Page takes the card (PCI DSS SAQ-A for us), then
//     sends the buyer to successURL or declineURL.
//   signature = lowercase hex SHA-256 of "<signature key>:k1=v1:k2=v2..." over the signed parameters,
//     sorted by name (empty ones left out of the URL and of the signature).
//   Postback: after an approved sale Verotel calls our postback URL (set in its Control Center to
//     {PUBLIC_URL}/api/payment/webhook/verotel) with GET ?shopID&saleID&referenceID&transactionID
//     &priceAmount&priceCurrency&paymentMethod&type&...&signature, signed the same way over every
//     parameter but `signature`; it expects the body "OK" (for cards, no OK means an automatic refund).
//     Declines send no postback. Later events (credit, chargeback) carry `event=`, the sale's saleID, their
//     own transactionID and the amount credited or charged back as priceAmount/priceCurrency.
// The postback is the record: it is signed with the shop's key, so it is applied as it is (no read-back:
// the adapter calls no Verotel API). A page never paid is given up after PAGE_HOURS; a postback that
// arrives later still credits (the money was taken).
import crypto from 'node:crypto';
import type { AppContext } from '../../../context';
import { fromDecimal, toDecimal } from './btcpay';
import {
  paymentIdOfKey,
  WebhookRejected,
  type PaymentProvider,
  type ProviderState,
  type WebhookEvent,
} from './provider';

export const FLEXPAY_VERSION = '4';
/** An order page not paid after this long is abandoned: the payment expires (a late postback still credits). */
export const PAGE_HOURS = 2;

/** The parameters FlexPay signs in a startorder or status URL (its client libraries' list). */
const SIGNED =
  /^(version|shopID|price(Amount|Currency)|paymentMethod|description|referenceID|saleID|custom[123]|subscriptionType|period|name|trialAmount|trialPeriod|cancelDiscountPercentage|type|successURL|declineURL|precedingSaleID|upgradeOption|mcc|subCreditorName|subCreditorId|subCreditorCountry)$/;

/** FlexPay's signature over `params` (already filtered), sorted by name. */
export function flexpaySignature(key: string, params: Record<string, string>): string {
  const parts = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`);
  return crypto
    .createHash('sha256')
    .update([key, ...parts].join(':'), 'utf8')
    .digest('hex');
}

/** The signed startorder URL of a purchase. */
export function purchaseUrl(
  base: string,
  shopId: string,
  key: string,
  input: Record<string, string | undefined>,
): string {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...input, version: FLEXPAY_VERSION, shopID: shopId, type: 'purchase' }))
    if (v !== undefined && v !== '') params[k] = v;
  const signed = Object.fromEntries(Object.entries(params).filter(([k]) => SIGNED.test(k)));
  const query = new URLSearchParams(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k]]),
  );
  query.set('signature', flexpaySignature(key, signed));
  return `${base.replace(/\/+$/, '')}/startorder?${query.toString()}`;
}

const equal = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function verotel(ctx: AppContext): PaymentProvider {
  const env = ctx.env;
  const shopId = env.VEROTEL_SHOP_ID!;
  const key = env.VEROTEL_SIGNATURE_KEY!;
  const allowed = (env.VEROTEL_POSTBACK_IPS ?? '')
    .split(',')
    .map((ip) => ip.trim())
    .filter(Boolean);

  return {
    name: 'verotel',
    method: 'card',
    sandbox: false,
    testMode: env.VEROTEL_TEST_MODE === 'true',
    // FlexPay has no refund call: refunds are made in Verotel's Control Center, and its credit postback
    // books them (decision 0423).
    refundsByNotification: true,
    // No tokenizer: the card is entered on Verotel's Order Page.
    async start(input) {
      const back = input.returnUrl;
      return {
        status: 'requires_action',
        ref: input.idempotencyKey,
        redirectUrl: purchaseUrl(env.VEROTEL_URL, shopId, key, {
          priceAmount: toDecimal(input.amount, input.currency),
          priceCurrency: input.currency,
          description: `Advertising credits ${input.idempotencyKey}`,
          referenceID: input.idempotencyKey,
          paymentMethod: 'CC',
          successURL: back,
          declineURL: back,
        }),
      };
    },
    // FlexPay has no charge to read back before the postback: an open page is waiting for the buyer, and
    // after PAGE_HOURS it is abandoned.
    async fetch(payment) {
      const age = payment.createdAt ? ctx.now().getTime() - payment.createdAt.getTime() : 0;
      if (age > PAGE_HOURS * 3_600_000)
        return { status: 'expired', ref: payment.providerRef ?? payment.idempotencyKey, failure: 'abandoned' };
      return { status: 'requires_action', ref: payment.providerRef ?? payment.idempotencyKey };
    },
    parseWebhook(rawBody, _headers, source): WebhookEvent {
      if (allowed.length && !allowed.includes(source?.ip ?? '')) throw new WebhookRejected(403, 'wrong source');
      const query = new URLSearchParams(rawBody.toString('utf8'));
      const params: Record<string, string> = {};
      for (const [k, v] of query) {
        if (k in params) throw new WebhookRejected(400, `${k} given twice`);
        params[k] = v;
      }
      const sent = (params.signature ?? '').toLowerCase();
      if (!sent) throw new WebhookRejected(401, 'no signature');
      delete params.signature;
      if (!equal(sent, flexpaySignature(key, { ...params, shopID: params.shopID ?? shopId })))
        throw new WebhookRejected(401, 'bad signature');
      if (params.shopID !== shopId) throw new WebhookRejected(400, 'another shop');
      const saleId = params.saleID;
      if (!saleId || !/^\d{1,20}$/.test(saleId)) throw new WebhookRejected(400, 'no saleID');
      const event = params.event ?? params.type ?? 'purchase';
      const id = `${event}:${params.transactionID ?? saleId}`;
      // A refund (`event=credit`, made in Verotel's Control Center) or a chargeback of the sale `saleID`,
      // for priceAmount of it: booked once by its transactionID (decision 0423). Other events are recorded.
      if (params.event === 'credit' || params.event === 'chargeback') {
        if (!params.transactionID || !/^\d{1,20}$/.test(params.transactionID))
          throw new WebhookRejected(400, 'no transactionID');
        if (params.priceCurrency !== env.SITE_CURRENCY) throw new WebhookRejected(400, 'another currency');
        if (!/^\d{1,9}(\.\d{1,2})?$/.test(params.priceAmount ?? '')) throw new WebhookRejected(400, 'no priceAmount');
        return {
          id,
          type: event,
          ref: saleId,
          paymentId: null,
          reversal: {
            kind: params.event === 'credit' ? 'refund' : 'chargeback',
            id: params.transactionID,
            amount: fromDecimal(params.priceAmount!, params.priceCurrency),
          },
        };
      }
      if (params.event) return { id, type: event, ref: null, paymentId: null };
      const paymentId = paymentIdOfKey(params.referenceID);
      if (params.type !== 'purchase' || paymentId === null) throw new WebhookRejected(400, 'not a purchase of ours');
      if (params.priceCurrency !== env.SITE_CURRENCY) throw new WebhookRejected(400, 'another currency');
      if (!/^\d{1,9}(\.\d{1,2})?$/.test(params.priceAmount ?? '')) throw new WebhookRejected(400, 'no priceAmount');
      const state: ProviderState = {
        status: 'succeeded',
        ref: saleId,
        amount: fromDecimal(params.priceAmount!, params.priceCurrency),
      };
      return { id, type: event, ref: null, paymentId, state };
    },
  };
}
