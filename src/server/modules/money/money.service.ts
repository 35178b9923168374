// The money service: the only way into the ledger, orders, payments, products and carts
// (docs/decisions/0401). Other modules call these functions; nothing else touches the money tables.
//
//   balanceOf(ctx, userId)                                   credits, minor units
//   purchase(ctx, {userId, productCode, idempotencyKey, source}, tx?)   buy from the balance (auto-topup)
//   adjustBalance(ctx, {actor, userId, amount, reason, idempotencyKey}) admin correction (a new pair)
//   recordBankTransfer(ctx, actor, {reference, amount, bank_transaction_id})  credit a received transfer
//   getCart / handleWebhook                                  checkout (the routes call cart.ts and
//                                                            checkout.ts themselves for the rest)
//   listTransactions / transactionsCsv                       statements
//   receiptOf(ctx, viewer, paymentId)                        a credited load's receipt (decision 0422)
//   listProducts / updateProduct                             prices
//   settleOpenPayments(ctx)                                  periodic: settle what a crash left open
//   dailyFlows(ctx, from, days)                              credits loaded and spent per day (admin overview)
//   refundableLoad / refundLoad / heldAccounts / releaseHold refunds, chargebacks, held accounts (0423)
import type { PaymentData, ProductsResponse } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import { positionOf } from '../listings/listings.service';
import { bankOffered } from './bank';
import { getCart } from './cart';
import { holdView } from './reversals';
import { balanceOf as ledgerBalance } from './ledger';
import { listProducts, presentProduct } from './products';
import { providers } from './providers';
import type { PaymentProvider } from './providers/provider';

export { AccountHeld, InsufficientBalance, ledgerProblems } from './ledger';
export { getCart } from './cart';
export { purchase } from './checkout';
export { handleWebhook, settleOpenPayments } from './settlement';
export { adjustBalance, adjustFromBody } from './adjust';
export { bankReference, getBankDetails, recordBankTransfer } from './bank';
export { listTransactions, transactionsCsv } from './transactions';
export { receiptOf } from './receipt';
export { listProducts, updateProduct } from './products';
export { dailyFlows } from './stats';
export {
  bookReversal,
  heldAccounts,
  refundableLoad,
  refundLoad,
  releaseHold,
  sendHoldMail,
  HOLD_MAIL_JOB,
} from './reversals';

export const balanceOf = (ctx: AppContext, userId: number) => ledgerBalance(ctx.db, userId);

export async function productsView(ctx: AppContext): Promise<ProductsResponse> {
  return {
    data: (await listProducts(ctx)).map(presentProduct),
    currency: ctx.env.SITE_CURRENCY,
    minimum_topup: ctx.env.MIN_TOPUP,
    providers: { card: providerInfo(providers(ctx).card), crypto: providerInfo(providers(ctx).crypto) },
  };
}

const providerInfo = (p: PaymentProvider | null) =>
  p ? { name: p.name, sandbox: p.sandbox, test_mode: p.sandbox || !!p.testMode } : null;

export async function getPaymentData(ctx: AppContext, userId: number): Promise<PaymentData> {
  const [products, cart, position, hold] = await Promise.all([
    listProducts(ctx),
    getCart(ctx, userId),
    positionOf(ctx.db, userId, ctx.now()),
    holdView(ctx, userId),
  ]);
  const { card, crypto } = providers(ctx);
  return {
    currency: ctx.env.SITE_CURRENCY,
    balance: cart.balance,
    minimum_topup: ctx.env.MIN_TOPUP,
    position,
    products: products.map(presentProduct),
    methods: {
      card: card
        ? {
            provider: card.name,
            sandbox: card.sandbox,
            test_mode: card.sandbox || !!card.testMode,
            hosted: !card.tokenizeUrl,
            tokenize_url: card.tokenizeUrl ?? '',
          }
        : null,
      crypto: crypto ? { provider: crypto.name, sandbox: crypto.sandbox } : null,
      bank: bankOffered(ctx.env),
    },
    cart,
    hold,
  };
}
