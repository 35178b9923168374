// A local stand-in of Verotel FlexPay (docs/decisions/0420) for the adapter's tests, following the
// published shapes (controlcenter.verotel.com/flexpay-doc, FlexPay client libraries), written apart from
// the adapter so that a mistake in one is not repeated in the other:
// - GET /startorder?version=4&shopID&type=purchase&priceAmount&priceCurrency&description&referenceID
//   &paymentMethod&successURL&declineURL&signature: the Order Page. A missing or malformed mandatory
//   parameter, another shop or a wrong signature is refused (400); otherwise the page opens (200, HTML)
//   and the sale waits for the buyer.
// - The buyer's answer on the page (`approve`, `decline`): approved sends the buyer to successURL and
//   makes the "OK data" postback (GET query, signed with the shop's key over every parameter but
//   `signature`); declined sends the buyer to declineURL, with no postback.
// - A refund made in Verotel's Control Center (`credit`) or a chargeback of an approved sale: recorded
//   (never more than the sale took in all, per kind, as Verotel's back office allows), with its signed
//   postback (`event=credit|chargeback`, the sale's saleID, a transactionID of its own, the amount).
// The postback is handed back to the test, which delivers it to our app (inject), as BTCPay's stand-in does.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInSale {
  saleID: string;
  transactionID: string;
  referenceID: string;
  priceAmount: string;
  priceCurrency: string;
  successURL: string;
  declineURL: string;
  status: 'open' | 'approved' | 'declined';
}

export interface StandInReversal {
  event: 'credit' | 'chargeback';
  saleID: string;
  transactionID: string;
  /** nn.nn in the sale's currency. */
  priceAmount: string;
}

export interface VerotelStandIn {
  url: string;
  shopId: string;
  signatureKey: string;
  /** Sales by saleID, in the order their pages were opened. */
  sales: Map<string, StandInSale>;
  /** Opens the Order Page as the buyer's browser does: the sale, or the page's refusal. */
  open(startorderUrl: string): Promise<{ status: number; sale: StandInSale | null; text: string }>;
  /** The buyer pays: where the browser goes, and the postback's query string (signed, or with `key`). */
  approve(
    saleId: string,
    opts?: { key?: string; extra?: Record<string, string>; drop?: string[] },
  ): { redirect: string; postback: string };
  /** The buyer's card is declined: where the browser goes; no postback. */
  decline(saleId: string): { redirect: string };
  /** Refunds (credits) and chargebacks made at Verotel, in order. */
  reversals: StandInReversal[];
  /**
   * A refund in the Control Center (`credit`) or a chargeback of `priceAmount` (nn.nn) of an approved sale:
   * recorded, and its signed postback. Throws beyond what the sale took (per kind).
   */
  reverse(
    event: 'credit' | 'chargeback',
    saleId: string,
    priceAmount: string,
  ): { reversal: StandInReversal; postback: string };
  /** A signed postback of any parameters (another shop, a refund event...). */
  sign(params: Record<string, string>, key?: string): string;
  close(): Promise<void>;
}

const CURRENCIES = new Set(['USD', 'EUR', 'GBP', 'AUD', 'CAD', 'CHF', 'DKK', 'NOK', 'SEK']);
const MANDATORY = ['version', 'shopID', 'type', 'priceAmount', 'priceCurrency', 'description'];

/** "key:k1=v1:k2=v2" sorted by name, SHA-256, lowercase hex (FlexPay's documented signature). */
function signature(key: string, params: Record<string, string>) {
  const text = [
    key,
    ...Object.entries(params)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`),
  ].join(':');
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** The startorder parameters the signature covers (email, oneClickToken and the like are not). */
const signedOf = (params: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(params).filter(
      ([k]) =>
        k !== 'signature' &&
        /^(version|shopID|priceAmount|priceCurrency|paymentMethod|description|referenceID|saleID|custom[123]|type|successURL|declineURL)$/.test(
          k,
        ),
    ),
  );

export async function startVerotelStandIn(): Promise<VerotelStandIn> {
  const shopId = String(100_000 + crypto.randomInt(800_000));
  const signatureKey = crypto.randomBytes(15).toString('base64url');
  const sales = new Map<string, StandInSale>();
  const reversals: StandInReversal[] = [];
  let nextReversal = 70_000_000 + crypto.randomInt(1_000_000);
  let nextSale = 40_000_000 + crypto.randomInt(1_000_000);

  const refuse = (res: http.ServerResponse, why: string) => {
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end(`ERROR: ${why}`);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method !== 'GET' || url.pathname !== '/startorder') {
      res.writeHead(404);
      return res.end();
    }
    const params = Object.fromEntries(url.searchParams);
    for (const k of MANDATORY) if (!params[k]) return refuse(res, `missing ${k}`);
    if (params.version !== '4') return refuse(res, 'unsupported version');
    if (params.type !== 'purchase') return refuse(res, 'unsupported type');
    if (params.shopID !== shopId) return refuse(res, 'unknown shop');
    if (!/^\d{1,9}\.\d{2}$/.test(params.priceAmount)) return refuse(res, 'priceAmount must be nnn.nn');
    if (!CURRENCIES.has(params.priceCurrency)) return refuse(res, 'priceCurrency not a sale currency');
    if (params.description.length > 100) return refuse(res, 'description longer than 100');
    if (params.signature !== signature(signatureKey, signedOf(params))) return refuse(res, 'invalid signature');
    // The merchant's referenceID is unique: the same purchase opened again is the same sale.
    const existing = params.referenceID
      ? [...sales.values()].find((s) => s.referenceID === params.referenceID)
      : undefined;
    const sale = existing ?? {
      saleID: String(nextSale++),
      transactionID: String(90_000_000 + crypto.randomInt(9_000_000)),
      referenceID: params.referenceID ?? '',
      priceAmount: params.priceAmount,
      priceCurrency: params.priceCurrency,
      successURL: params.successURL ?? '',
      declineURL: params.declineURL ?? '',
      status: 'open' as const,
    };
    sales.set(sale.saleID, sale);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-sale-id': sale.saleID });
    res.end(`<!doctype html><title>Verotel Order Page</title><p>${params.priceAmount} ${params.priceCurrency}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const query = (params: Record<string, string>, key = signatureKey) =>
    new URLSearchParams({ ...params, signature: signature(key, params) }).toString();

  return {
    url: base,
    shopId,
    signatureKey,
    sales,
    async open(startorderUrl) {
      const res = await fetch(startorderUrl);
      const text = await res.text();
      const id = res.headers.get('x-sale-id');
      return { status: res.status, sale: id ? sales.get(id)! : null, text };
    },
    approve(saleId, opts = {}) {
      const sale = sales.get(saleId)!;
      sale.status = 'approved';
      const params: Record<string, string> = {
        priceAmount: sale.priceAmount,
        priceCurrency: sale.priceCurrency,
        referenceID: sale.referenceID,
        saleID: sale.saleID,
        shopID: shopId,
        transactionID: sale.transactionID,
        type: 'purchase',
        paymentMethod: 'CC',
        ...opts.extra,
      };
      for (const k of opts.drop ?? []) delete params[k];
      return { redirect: sale.successURL, postback: query(params, opts.key) };
    },
    decline(saleId) {
      const sale = sales.get(saleId)!;
      sale.status = 'declined';
      return { redirect: sale.declineURL };
    },
    reversals,
    reverse(event, saleId, priceAmount) {
      const sale = sales.get(saleId);
      if (sale?.status !== 'approved') throw new Error(`sale ${saleId} was not approved`);
      const cents = (amount: string) => Math.round(Number(amount) * 100);
      const before = reversals
        .filter((r) => r.saleID === saleId && r.event === event)
        .reduce((sum, r) => sum + cents(r.priceAmount), 0);
      if (!/^\d{1,9}\.\d{2}$/.test(priceAmount) || before + cents(priceAmount) > cents(sale.priceAmount))
        throw new Error(`${event} of ${priceAmount} is more than sale ${saleId} took`);
      const reversal = {
        event,
        saleID: saleId,
        transactionID: String(nextReversal++),
        priceAmount,
      };
      reversals.push(reversal);
      const postback = query({
        event,
        shopID: shopId,
        saleID: saleId,
        transactionID: reversal.transactionID,
        priceAmount,
        priceCurrency: sale.priceCurrency,
        type: 'purchase',
      });
      return { reversal, postback };
    },
    sign: (params, key) => query(params, key),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
