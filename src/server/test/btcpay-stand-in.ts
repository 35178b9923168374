// A local stand-in of BTCPay Server's Greenfield API (https://docs.btcpayserver.org/API/Greenfield/v1/),
// for the adapter's tests: the documented shapes of what our adapter calls, and webhooks signed the way
// BTCPay signs them. It is strict where the real server is: the API key, the store, the body's types.
//   POST /api/v1/stores/{storeId}/invoices                      {amount: "10.00", currency, metadata, checkout}
//   GET  /api/v1/stores/{storeId}/invoices?orderId=...          [Invoice]
//   GET  /api/v1/stores/{storeId}/invoices/{invoiceId}          Invoice (404 unknown)
//   GET  /api/v1/stores/{storeId}/invoices/{invoiceId}/payment-methods   [InvoicePaymentMethodDataModel]
//   POST /api/v1/stores/{storeId}/invoices/{invoiceId}/refund    {name, description, refundVariant, customAmount,
//                                                               customCurrency} -> PullPaymentData (400 unpaid)
//   GET  /api/v1/stores/{storeId}/pull-payments                  [PullPaymentData]
// Webhook deliveries: {deliveryId, webhookId, originalDeliveryId, isRedelivery, type, timestamp, storeId,
// invoiceId, metadata, ...} with `BTCPay-Sig: sha256=<HMAC-SHA256 hex of the body>`.
import crypto from 'node:crypto';
import http from 'node:http';

export type InvoiceStatus = 'New' | 'Processing' | 'Settled' | 'Expired' | 'Invalid';

export interface StandInInvoice {
  id: string;
  storeId: string;
  amount: string;
  currency: string;
  type: 'Standard';
  checkoutLink: string;
  status: InvoiceStatus;
  additionalStatus: 'None' | 'PaidLate' | 'PaidPartial' | 'PaidOver' | 'Marked' | 'Invalid';
  createdTime: number;
  expirationTime: number;
  monitoringExpiration: number;
  archived: boolean;
  metadata: Record<string, unknown>;
  checkout: Record<string, unknown>;
  /** Not part of the API's invoice: what /payment-methods reports. */
  payments: Array<{
    id: string;
    receivedDate: number;
    value: string;
    fee: string;
    status: string;
    destination: string;
  }>;
}

export interface StandIn {
  url: string;
  storeId: string;
  apiKey: string;
  webhookSecret: string;
  invoices: Map<string, StandInInvoice>;
  /** Pull payments made by refunds. */
  pullPayments: Array<{
    id: string;
    name: string;
    description: string;
    currency: string;
    amount: string;
    invoiceId: string;
    archived: boolean;
    viewLink: string;
  }>;
  /** Every API call received, for assertions on what our adapter sent. */
  calls: Array<{ method: string; path: string; body: unknown }>;
  /** Makes every API call answer this status until set back to null (an outage). */
  failWith: number | null;
  /** A payment to the invoice's address: `Processing` while unconfirmed, `Settled` once confirmed. */
  pay(invoiceId: string, opts?: { confirmed?: boolean }): void;
  expire(invoiceId: string): void;
  /** A webhook body and its signature (with another secret to forge one). */
  webhook(
    type: string,
    invoiceId: string,
    opts?: { deliveryId?: string; originalDeliveryId?: string; secret?: string; extra?: Record<string, unknown> },
  ): { body: string; headers: Record<string, string>; deliveryId: string };
  close(): Promise<void>;
}

const RATE = 50_000; // 1 BTC = 50,000.00 of the invoice currency

export async function startBtcpayStandIn(): Promise<StandIn> {
  const storeId = `store${crypto.randomBytes(6).toString('hex')}`;
  const apiKey = crypto.randomBytes(20).toString('hex');
  const webhookSecret = crypto.randomBytes(16).toString('hex');
  const invoices = new Map<string, StandInInvoice>();
  const pullPayments: StandIn['pullPayments'] = [];
  const calls: StandIn['calls'] = [];
  let base = '';

  const btcDue = (inv: StandInInvoice) => (Number(inv.amount) / RATE).toFixed(8);
  const destination = (inv: StandInInvoice) =>
    `bcrt1q${crypto.createHash('sha256').update(inv.id).digest('hex').slice(0, 38)}`;
  const paymentMethods = (inv: StandInInvoice) => {
    const paid = inv.payments.reduce((sum, p) => sum + Number(p.value), 0);
    return [
      {
        paymentMethod: 'BTC',
        cryptoCode: 'BTC',
        destination: destination(inv),
        paymentLink: `bitcoin:${destination(inv)}?amount=${btcDue(inv)}`,
        rate: RATE.toFixed(2),
        paymentMethodPaid: paid.toFixed(8),
        totalPaid: paid.toFixed(8),
        due: Math.max(0, Number(btcDue(inv)) - paid).toFixed(8),
        amount: btcDue(inv),
        networkFee: '0.00000000',
        payments: inv.payments,
        activated: true,
      },
    ];
  };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      if (raw) {
        try {
          body = JSON.parse(raw);
        } catch {
          return send(res, 400, { code: 'invalid-json', message: 'The body is not JSON' });
        }
      }
      calls.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, body });
      if (stand.failWith) return send(res, stand.failWith, { code: 'unavailable', message: 'down' });
      if (req.headers.authorization !== `token ${apiKey}`)
        return send(res, 401, { code: 'unauthenticated', message: 'Authentication is required' });
      const pulls = /^\/api\/v1\/stores\/([^/]+)\/pull-payments$/.exec(url.pathname);
      if (pulls && req.method === 'GET') {
        if (decodeURIComponent(pulls[1]) !== storeId) return send(res, 403, { code: 'unauthorized', message: 'store' });
        const all = url.searchParams.get('includeArchived') === 'true';
        return send(
          res,
          200,
          pullPayments.filter((p) => all || !p.archived).map(({ invoiceId: _i, ...shown }) => shown),
        );
      }
      const refund = /^\/api\/v1\/stores\/([^/]+)\/invoices\/([^/]+)\/refund$/.exec(url.pathname);
      if (refund && req.method === 'POST') {
        if (decodeURIComponent(refund[1]) !== storeId)
          return send(res, 403, { code: 'unauthorized', message: 'store' });
        const inv = invoices.get(decodeURIComponent(refund[2]));
        if (!inv) return send(res, 404, { code: 'invoice-not-found', message: 'The invoice was not found' });
        const b = body as Record<string, unknown> | undefined;
        const errors: Array<{ path: string; message: string }> = [];
        if (typeof b?.refundVariant !== 'string')
          errors.push({ path: 'refundVariant', message: 'refundVariant is required' });
        if (b?.refundVariant === 'Custom') {
          if (
            typeof b.customAmount !== 'string' ||
            !/^\d+(\.\d+)?$/.test(b.customAmount) ||
            Number(b.customAmount) <= 0
          )
            errors.push({ path: 'customAmount', message: 'customAmount should be a positive decimal string' });
          if (typeof b.customCurrency !== 'string')
            errors.push({ path: 'customCurrency', message: 'customCurrency is required' });
          else if (Number(b.customAmount) > Number(inv.amount))
            errors.push({ path: 'customAmount', message: 'more than the invoice' });
        }
        if (errors.length) return send(res, 422, errors);
        const paid = inv.status === 'Settled' || inv.additionalStatus === 'PaidLate';
        if (!paid) return send(res, 400, { code: 'non-refundable', message: 'Cannot refund this invoice' });
        const id = crypto.randomBytes(11).toString('base64url');
        const pull = {
          id,
          name: String(b?.name ?? ''),
          description: String(b?.description ?? ''),
          currency: String(b?.customCurrency ?? inv.currency),
          amount: String(b?.customAmount ?? inv.amount),
          invoiceId: inv.id,
          archived: false,
          viewLink: `${base}/pull-payments/${id}`,
        };
        pullPayments.push(pull);
        const { invoiceId: _i, ...shown } = pull;
        return send(res, 200, shown);
      }
      const m = /^\/api\/v1\/stores\/([^/]+)\/invoices(?:\/([^/]+))?(\/payment-methods)?$/.exec(url.pathname);
      if (!m) return send(res, 404, { code: 'not-found', message: 'no such route' });
      if (decodeURIComponent(m[1]) !== storeId) return send(res, 403, { code: 'unauthorized', message: 'store' });
      const [, , invoiceId, methods] = m;
      if (req.method === 'POST' && !invoiceId) {
        const b = body as {
          amount?: unknown;
          currency?: unknown;
          metadata?: Record<string, unknown>;
          checkout?: Record<string, unknown>;
        };
        const errors: Array<{ path: string; message: string }> = [];
        if (typeof b?.amount !== 'string' || !/^\d+(\.\d+)?$/.test(b.amount))
          errors.push({ path: 'amount', message: 'Amount should be a decimal string' });
        if (typeof b?.currency !== 'string') errors.push({ path: 'currency', message: 'Currency is required' });
        if (errors.length) return send(res, 422, errors);
        const id = crypto.randomBytes(11).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        const expiry = Number(b.checkout?.expirationMinutes ?? 15);
        const invoice: StandInInvoice = {
          id,
          storeId,
          amount: b.amount as string,
          currency: b.currency as string,
          type: 'Standard',
          checkoutLink: `${base}/i/${id}`,
          status: 'New',
          additionalStatus: 'None',
          createdTime: now,
          expirationTime: now + expiry * 60,
          monitoringExpiration: now + expiry * 60 + 3600,
          archived: false,
          metadata: b.metadata ?? {},
          checkout: b.checkout ?? {},
          payments: [],
        };
        invoices.set(id, invoice);
        const { payments: _hidden, ...shown } = invoice;
        return send(res, 200, shown);
      }
      if (req.method === 'GET' && !invoiceId) {
        const wanted = url.searchParams.getAll('orderId');
        const found = [...invoices.values()].filter(
          (i) => !wanted.length || wanted.includes(String(i.metadata.orderId)),
        );
        return send(
          res,
          200,
          found.map(({ payments: _hidden, ...shown }) => shown),
        );
      }
      const invoice = invoiceId ? invoices.get(decodeURIComponent(invoiceId)) : undefined;
      if (req.method === 'GET' && invoice) {
        if (methods) return send(res, 200, paymentMethods(invoice));
        const { payments: _hidden, ...shown } = invoice;
        return send(res, 200, shown);
      }
      return send(res, 404, { code: 'invoice-not-found', message: 'The invoice was not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const stand: StandIn = {
    url: base,
    storeId,
    apiKey,
    webhookSecret,
    invoices,
    pullPayments,
    calls,
    failWith: null,
    pay(invoiceId, opts = {}) {
      const inv = invoices.get(invoiceId)!;
      const confirmed = opts.confirmed ?? true;
      const expired = inv.status === 'Expired';
      inv.payments = [
        {
          id: `${crypto.randomBytes(32).toString('hex')}-0`,
          receivedDate: Math.floor(Date.now() / 1000),
          value: btcDue(inv),
          fee: '0.00000000',
          status: confirmed ? 'Settled' : 'Processing',
          destination: destination(inv),
        },
      ];
      // As BTCPay does: paid after expiry stays Expired and says so in additionalStatus.
      if (expired) inv.additionalStatus = 'PaidLate';
      else inv.status = confirmed ? 'Settled' : 'Processing';
    },
    expire(invoiceId) {
      const inv = invoices.get(invoiceId)!;
      inv.status = 'Expired';
    },
    webhook(type, invoiceId, opts = {}) {
      const inv = invoices.get(invoiceId);
      const deliveryId = opts.deliveryId ?? crypto.randomBytes(11).toString('base64url');
      const body = JSON.stringify({
        deliveryId,
        webhookId: 'wh1',
        originalDeliveryId: opts.originalDeliveryId ?? deliveryId,
        isRedelivery: Boolean(opts.originalDeliveryId && opts.originalDeliveryId !== deliveryId),
        type,
        timestamp: Math.floor(Date.now() / 1000),
        storeId,
        invoiceId,
        metadata: inv?.metadata ?? {},
        ...opts.extra,
      });
      const signature = crypto
        .createHmac('sha256', opts.secret ?? webhookSecret)
        .update(body)
        .digest('hex');
      return {
        body,
        deliveryId,
        headers: { 'content-type': 'application/json', 'btcpay-sig': `sha256=${signature}` },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return stand;
}
