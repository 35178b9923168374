// /api/payment/* (spec section 7 "Payment") and the admin calls on money. Thin: validate with the shared
// schemas, authorise in onRequest, call the money module, answer its result. The cart and payment routes
// call cart.ts and checkout.ts themselves, the rest the money service. Every route refuses a body or
// query that carries a card number (card-guard.ts) before anything reads it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '#shared/api/fields.ts';
import {
  AddToCartBody,
  AdjustBalanceBody,
  BankDetailsResponse,
  CartResponse,
  LedgerChangeResponse,
  MakePaymentBody,
  PaymentDataResponse,
  PaymentIdParam,
  PaymentResultResponse,
  ProductsResponse,
  ReceiptQuery,
  HeldAccountsResponse,
  RecordBankTransferBody,
  RefundableLoadResponse,
  RefundLoadBody,
  RefundResultResponse,
  ReleaseHoldBody,
  ReleaseHoldResponse,
  RemoveCartItemBody,
  TransactionsBody,
  TransactionsCsvQuery,
  TransactionsPage,
  UpdateProductBody,
} from '#shared/schemas/money.ts';
import { errorAnswers, fileAnswer } from '#shared/schemas/route-answers.ts';
import { PageQuery } from '#shared/schemas/directory.ts';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/session';
import { adminOnly, may, sameOriginJson, signedIn } from '../auth/guards';
import { pickLanguage } from '#shared/rules/language.ts';
import { refuseCardNumbers } from './card-guard';
import { businessDetails, receiptCsp, renderReceipt } from './receipt';
import { addToCart, getCart, removeCartItem } from './cart';
import { getPayment, makePayment } from './checkout';
import * as money from './money.service';
import { metricsOf } from '../../lib/metrics';

const perUser = (max: number, timeWindow: string) => ({
  rateLimit: {
    max,
    timeWindow,
    keyGenerator: (req: { user: { id: number } | null; ip: string }) => (req.user ? `user:${req.user.id}` : req.ip),
  },
});

export const moneyRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await sameOriginJson(request, reply);
  });
  app.addHook('preValidation', refuseCardNumbers);

  app.get('/payment/products', { schema: { response: { 200: ProductsResponse } } }, async () =>
    money.productsView(ctx),
  );

  app.get(
    '/payment/getData',
    { onRequest: signedIn, schema: { response: { 200: PaymentDataResponse } } },
    async (req) => ({
      data: await money.getPaymentData(ctx, requireUser(req).id),
    }),
  );

  app.get('/payment/getCart', { onRequest: signedIn, schema: { response: { 200: CartResponse } } }, async (req) => ({
    data: await getCart(ctx, requireUser(req).id),
  }));

  // 503: a money transaction still in conflict after its retries, or the provider out of reach (decision
  // 0401); Retry-After says when to try again.
  const busy = errorAnswers(503);

  app.post(
    '/payment/addToCart',
    { onRequest: signedIn, schema: { body: AddToCartBody, response: { 200: CartResponse, ...busy } } },
    async (req) => ({ data: await addToCart(ctx, requireUser(req).id, req.body) }),
  );

  app.post(
    '/payment/removeCartItem',
    { onRequest: signedIn, schema: { body: RemoveCartItemBody, response: { 200: CartResponse, ...busy } } },
    async (req) => ({ data: await removeCartItem(ctx, requireUser(req).id, req.body.uid) }),
  );

  app.post(
    '/payment/makePayment',
    {
      onRequest: signedIn,
      schema: { body: MakePaymentBody, response: { 200: PaymentResultResponse, ...busy } },
      config: perUser(30, '10 minutes'),
    },
    async (req) => ({ data: await makePayment(ctx, requireUser(req).id, req.body) }),
  );

  app.get(
    '/payment/getPayment/:paymentId',
    { onRequest: signedIn, schema: { params: PaymentIdParam, response: { 200: PaymentResultResponse, ...busy } } },
    async (req) => ({ data: await getPayment(ctx, requireUser(req), req.params.paymentId) }),
  );

  app.post(
    '/payment/getTransactions',
    {
      onRequest: signedIn,
      schema: { querystring: PageQuery, body: TransactionsBody, response: { 200: TransactionsPage } },
    },
    async (req) => money.listTransactions(ctx, requireUser(req), req.body.user_id, req.query.page),
  );

  app.get(
    '/payment/getTransactionsCsv',
    {
      onRequest: signedIn,
      schema: {
        querystring: TransactionsCsvQuery,
        response: {
          200: fileAnswer(
            'text/csv',
            "The account's transactions, newest first, one a line after a header.",
            z.string(),
          ),
          ...errorAnswers(401, 403, 422),
        },
      },
    },
    async (req, reply) => {
      const csv = await money.transactionsCsv(ctx, requireUser(req), req.query.user_id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="transactions-${req.query.user_id}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  // A credited load's receipt (decision 0422): a printable page in the reader's language (?lang=, else the
  // host's), 404 for anyone but the owner and admins and for a payment that credited nothing.
  app.get(
    '/payment/receipt/:paymentId',
    {
      onRequest: signedIn,
      schema: {
        params: PaymentIdParam,
        querystring: ReceiptQuery,
        response: {
          200: fileAnswer('text/html', 'The receipt as a printable page (print it or save it as PDF).', z.string()),
          ...errorAnswers(401, 404, 422),
        },
      },
    },
    async (req, reply) => {
      const receipt = await money.receiptOf(ctx, requireUser(req), req.params.paymentId);
      const lang = pickLanguage({ hostname: req.hostname, search: req.query.lang ? `lang=${req.query.lang}` : '' });
      const nonce = reply.cspNonce;
      if (req.query.download)
        void reply.header('content-disposition', `attachment; filename="receipt-${receipt.number}.html"`);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', receiptCsp(nonce))
        .send(renderReceipt(receipt, businessDetails(ctx.env), lang, nonce));
    },
  );

  app.get(
    '/payment/getBankDetails/:id',
    { onRequest: may('read', 'money'), schema: { params: IdParam, response: { 200: BankDetailsResponse } } },
    async (req) => ({ data: money.getBankDetails(ctx, req.params.id) }),
  );

  // ---------------------------------------------------------------- admin

  app.post(
    '/admin/products',
    { onRequest: adminOnly, schema: { body: UpdateProductBody, response: { 200: ProductsResponse } } },
    async (req) => {
      await money.updateProduct(ctx, req.body, requireUser(req));
      return money.productsView(ctx);
    },
  );

  app.post(
    '/admin/adjustBalance',
    { onRequest: adminOnly, schema: { body: AdjustBalanceBody, response: { 200: LedgerChangeResponse, ...busy } } },
    async (req) => ({ data: await money.adjustFromBody(ctx, requireUser(req), req.body) }),
  );

  app.post(
    '/admin/recordBankTransfer',
    {
      onRequest: adminOnly,
      schema: { body: RecordBankTransferBody, response: { 200: LedgerChangeResponse, ...busy } },
    },
    async (req) => ({ data: await money.recordBankTransfer(ctx, requireUser(req), req.body) }),
  );

  // Refunds and held accounts (decision 0423).
  app.get(
    '/admin/loads/:paymentId',
    {
      onRequest: adminOnly,
      schema: { params: PaymentIdParam, response: { 200: RefundableLoadResponse, ...errorAnswers(404) } },
    },
    async (req) => ({ data: await money.refundableLoad(ctx, req.params.paymentId) }),
  );

  app.post(
    '/admin/refundLoad',
    {
      onRequest: adminOnly,
      schema: { body: RefundLoadBody, response: { 200: RefundResultResponse, ...errorAnswers(404), ...busy } },
    },
    async (req) => ({ data: await money.refundLoad(ctx, requireUser(req), req.body) }),
  );

  app.get(
    '/admin/heldAccounts',
    { onRequest: adminOnly, schema: { response: { 200: HeldAccountsResponse } } },
    async () => money.heldAccounts(ctx),
  );

  app.post(
    '/admin/releaseHold',
    {
      onRequest: adminOnly,
      schema: { body: ReleaseHoldBody, response: { 200: ReleaseHoldResponse, ...busy } },
    },
    async (req) => ({ data: await money.releaseHold(ctx, requireUser(req), req.body) }),
  );
};

/** The providers a webhook may name; any other name is counted as `other` (a label never takes a caller's text). */
const KNOWN_PROVIDERS = new Set(['sandbox', 'verotel', 'btcpay']);

/** A notification's outcome (credited, duplicate, unmatched...) or refusal (its status) in the metrics (decision 1019). */
async function countedWebhook<T extends { outcome: string }>(
  ctx: AppContext,
  provider: string,
  handle: () => Promise<T>,
): Promise<T> {
  const label = KNOWN_PROVIDERS.has(provider) ? provider : 'other';
  try {
    const answer = await handle();
    metricsOf(ctx).webhooks.inc({ provider: label, outcome: answer.outcome });
    return answer;
  } catch (err) {
    const status = (err as { statusCode?: number }).statusCode;
    metricsOf(ctx).webhooks.inc({ provider: label, outcome: status ? `refused_${status}` : 'error' });
    throw err;
  }
}

const WebhookParams = z.object({ provider: z.string().regex(/^[a-z0-9-]{1,30}$/) });
const WebhookAnswer = z.object({ received: z.literal(true), outcome: z.string() });

/**
 * POST /api/payment/webhook/{provider}: providers' signed events. The signature is over the exact bytes,
 * so this plugin keeps the body raw (and reads no other content type as anything but bytes).
 */
export const webhookRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));

  app.post(
    '/payment/webhook/:provider',
    // 400 a notification that does not read, 401 its signature missing or wrong, 403 from an address the
    // provider does not send from, 503 the provider out of reach or the ledger busy (it sends it again).
    { schema: { params: WebhookParams, response: { 200: WebhookAnswer, ...errorAnswers(400, 401, 403, 503) } } },
    async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return countedWebhook(ctx, req.params.provider, () =>
        money.handleWebhook(ctx, req.params.provider, raw, req.headers, { ip: req.ip }),
      );
    },
  );

  // GET /api/payment/webhook/{provider}?...: a provider that notifies with a signed query string
  // (Verotel FlexPay's postback, decision 0420). The signature is over the exact parameters, so the raw
  // query is handed on; the answer is the plain `OK` the provider waits for.
  app.get(
    '/payment/webhook/:provider',
    {
      schema: {
        params: WebhookParams,
        response: {
          200: fileAnswer('text/plain', 'The notification was taken: `OK`, as the provider expects.', z.literal('OK')),
          ...errorAnswers(400, 401, 403, 503),
        },
      },
    },
    async (req, reply) => {
      const url = req.raw.url ?? '';
      const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
      await countedWebhook(ctx, req.params.provider, () =>
        money.handleWebhook(ctx, req.params.provider, Buffer.from(query, 'utf8'), req.headers, { ip: req.ip }),
      );
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('OK');
    },
  );
};
