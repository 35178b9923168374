// Calls of money (spec sections 2, 3 and 7 "Payment"; DESIGN.md "Money"): products and prices, the cart,
// checkout with a load method, payment status, transactions, the bank-transfer details of /edit/load/{id},
// provider webhooks and the admin calls on money. Every amount is an integer in minor units (cents) of
// `currency` (SITE_CURRENCY); the client formats it with Intl for the reader's language.
//
// Bodies are strict: an unknown key is refused with the 422 envelope. Card numbers, expiry dates and CVCs
// never appear here (PCI DSS SAQ-A): the browser sends them to the provider's tokenizer (`methods.card`
// below) and gives our API the token only; a body that carries anything like a card number is refused
// with 422 before it is read.
import { z } from 'zod';
import { coercedId, isoDay, text, withoutControlCharacters } from '../api/fields';
import { messageText } from '../api/messages';
import { LANGUAGES } from '../constants';

/** What can be bought (DESIGN.md "Money"): prices live in the `products` table, editable by admins. */
export const PRODUCT_CODES = ['standard_topup', 'additional_location'] as const;
export const ProductCode = z.enum(PRODUCT_CODES);
export type ProductCode = z.infer<typeof ProductCode>;

/** Ways to load credits. `balance` in makePayment means: pay from the balance, load nothing. */
export const LOAD_METHODS = ['card', 'crypto', 'bank'] as const;
export const LoadMethod = z.enum(LOAD_METHODS);
export type LoadMethod = z.infer<typeof LoadMethod>;

export const TRANSACTION_KINDS = ['load', 'purchase', 'auto_topup', 'adjustment', 'refund', 'chargeback'] as const;
/** Why an advertiser's account is held (decision 0423): no spending until an admin releases it. */
export const HOLD_REASONS = ['negative_balance', 'chargeback'] as const;
export const TRANSACTIONS_PAGE_SIZE = 25;
/** At most this many items in a cart. */
export const CART_MAX_ITEMS = 10;
// In constants.ts (no Zod): the menu names it, and the menu is in the first route's code.
export { TOPUP_CART_PATH } from '../constants';

const id = coercedId();
/** A positive amount in minor units; 10,000,000.00 at most, far above any real load. */
const amount = z.number().int().positive().max(1_000_000_000);
/** Client-made key of one intended payment (a UUID is ideal): the same key never pays twice. */
export const IdempotencyKey = z
  .string()
  .min(8)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, messageText('validation.referenceChars'));
const isoDate = isoDay();

// ---------------------------------------------------------------- products

export const Product = z.object({
  code: ProductCode,
  /** Minor units of `currency`. */
  price: z.number(),
  /** additional_location: how long the location is listed (30); null for a top-up. */
  duration_days: z.number().nullable(),
  /** Inactive products are not sold (admins switch them off). */
  active: z.boolean(),
});
export type Product = z.infer<typeof Product>;

/** Who takes each load method, and whether it is a test provider or in test mode (admin money screen). */
export const ProviderInfo = z.object({ name: z.string(), sandbox: z.boolean(), test_mode: z.boolean() });

/** GET /api/payment/products (public, for /shop and /what-you-get). */
export const ProductsResponse = z.object({
  data: z.array(Product),
  currency: z.string(),
  /** Smallest amount a card or crypto load may have (the cart's `minimum_topup`). */
  minimum_topup: z.number(),
  /** The card and crypto providers in use (null: the method is off). */
  providers: z.object({ card: ProviderInfo.nullable(), crypto: ProviderInfo.nullable() }),
});
export type ProductsResponse = z.infer<typeof ProductsResponse>;

/** POST /api/admin/products: changes one product's price (and duration / availability). */
export const UpdateProductBody = z.strictObject({
  code: ProductCode,
  price: amount,
  duration_days: z.number().int().min(1).max(365).optional(),
  active: z.boolean().optional(),
});
export type UpdateProductBody = z.infer<typeof UpdateProductBody>;

// ---------------------------------------------------------------- cart

/**
 * POST /api/payment/addToCart. `{ uid: 'standard_topup' }` adds the top-up (a cart holds one);
 * `{ uid: 'additional_location', city_id, from?, until? }` adds a location in another city for
 * ADDITIONAL_LOCATION_DAYS (constants.ts) days, optionally as a tour with dates (YYYY-MM-DD, from <= until, until within
 * those days). Buying a city the profile is already listed in extends that listing.
 */
export const AddToCartBody = z.discriminatedUnion('uid', [
  z.strictObject({ uid: z.literal('standard_topup') }),
  z.strictObject({
    uid: z.literal('additional_location'),
    city_id: id,
    from: isoDate.nullish(),
    until: isoDate.nullish(),
  }),
]);
export type AddToCartBody = z.infer<typeof AddToCartBody>;

/** POST /api/payment/removeCartItem: the `uid` of a cart item (CartItem.uid). */
export const RemoveCartItemBody = z.strictObject({ uid: text('Item', 64).min(1) });
export type RemoveCartItemBody = z.infer<typeof RemoveCartItemBody>;

export const CartItem = z.object({
  /** This item's id in the cart (removeCartItem). */
  uid: z.string(),
  product: ProductCode,
  /** Current price of the product, minor units. */
  price: z.number(),
  /** additional_location: where, and the optional tour dates. */
  city: z.object({ id: z.number(), name: z.string(), country: z.string() }).nullable(),
  from: z.string().nullable(),
  until: z.string().nullable(),
});
export type CartItem = z.infer<typeof CartItem>;

/**
 * The cart as the client holds it: every cart call (getCart, addToCart, removeCartItem, makePayment)
 * answers with it and the client replaces its copy (spec section 7).
 */
export const Cart = z.object({
  items: z.array(CartItem),
  currency: z.string(),
  balance: z.number(),
  /** The smallest load (a card or crypto payment loads at least this much). */
  minimum_topup: z.number(),
  /** Sum of the items' prices. */
  total: z.number(),
  /** 0 when the balance covers the total, otherwise max(total - balance, minimum_topup). */
  amount_to_pay: z.number(),
  /** balance + amount_to_pay - total. */
  new_balance: z.number(),
  /** The advertiser's position (1 = top of the home city, DESIGN.md); null when not listed. */
  position: z.number().nullable(),
});
export type Cart = z.infer<typeof Cart>;
export const CartResponse = z.object({ data: Cart });
export type CartResponse = z.infer<typeof CartResponse>;

// ---------------------------------------------------------------- payment methods and getData

/**
 * How the browser pays by card: it posts number, expiry and CVC to `tokenize_url` (the provider's, never
 * ours) and sends the token it gets back to makePayment. The sandbox tokenizer:
 * POST {tokenize_url} {number, exp_month, exp_year, cvc, name?} -> {id: 'tok_...', card: {last4, brand,
 * exp_month, exp_year}}; 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000
 * 3220 needs the confirmation step. A token may be kept in the browser ("save on this device", with the
 * last four digits) and used again.
 */
export const CardMethodInfo = z.object({
  provider: z.string(),
  /** The built-in sandbox: say so on screen (DESIGN.md). */
  sandbox: z.boolean(),
  /** A real acquirer's account in its test mode (no real money moves): say so on screen. */
  test_mode: z.boolean(),
  /**
   * The card is entered on the acquirer's hosted payment page (Verotel FlexPay, decision 0420): send
   * makePayment without card_token and the browser to `next_action.url`. `tokenize_url` is then empty.
   */
  hosted: z.boolean(),
  tokenize_url: z.string(),
});
export const CryptoMethodInfo = z.object({
  provider: z.string(),
  sandbox: z.boolean(),
});

/** GET /api/payment/getData: everything /checkout/* needs at once. */
export const PaymentData = z.object({
  currency: z.string(),
  balance: z.number(),
  minimum_topup: z.number(),
  position: z.number().nullable(),
  products: z.array(Product),
  methods: z.object({
    card: CardMethodInfo.nullable(),
    crypto: CryptoMethodInfo.nullable(),
    /** Bank transfer: with the site's account (or the sandbox's outside production); details from getBankDetails/{id}. */
    bank: z.boolean(),
  }),
  cart: Cart,
  /** The account is held (decision 0423): nothing can be bought from the balance until an admin releases it. */
  hold: z.object({ since: z.string(), reason: z.enum(HOLD_REASONS) }).nullable(),
});
export type PaymentData = z.infer<typeof PaymentData>;
export const PaymentDataResponse = z.object({ data: PaymentData });
export type PaymentDataResponse = z.infer<typeof PaymentDataResponse>;

/** GET /api/payment/getBankDetails/{id} (/edit/load/{id}): where to send a transfer, and what to write. */
export const BankDetails = z.object({
  /** Per-advertiser reference to put on the transfer; an admin credits by it. */
  reference: z.string(),
  holder: z.string(),
  iban: z.string(),
  bic: z.string(),
  bank_name: z.string(),
  currency: z.string(),
  minimum_topup: z.number(),
  /** Not a real account (BANK_* not configured): say so on screen. */
  sandbox: z.boolean(),
});
export type BankDetails = z.infer<typeof BankDetails>;
export const BankDetailsResponse = z.object({ data: BankDetails });

// ---------------------------------------------------------------- makePayment

const payCommon = {
  /** Same key = same payment: a retry (double click, lost answer) never pays or loads twice. */
  idempotency_key: IdempotencyKey,
  /**
   * The cart total the buyer saw. When given and prices changed since, the call is refused (422,
   * field expected_total) and nothing is paid.
   */
  expected_total: z.number().int().min(0).optional(),
};
/**
 * What a card or crypto payment is for (docs/decisions/0406): `load` puts credits on the balance and
 * never reads or pays the cart (Load Credits); `cart` loads what the cart needs (or more) and then pays
 * the cart from the balance (the cart's button). Default `cart`: the spec's makePayment is a cart call.
 */
export const PAYMENT_PURPOSES = ['load', 'cart'] as const;
export const PaymentPurpose = z.enum(PAYMENT_PURPOSES);
export type PaymentPurpose = z.infer<typeof PaymentPurpose>;

const loadCommon = {
  ...payCommon,
  purpose: PaymentPurpose.optional(),
  /**
   * How much to load, minor units. Default: minimum_topup for a `load`; for `cart`, the cart's
   * amount_to_pay (or minimum_topup when the cart is empty, a plain load). Never less than minimum_topup,
   * nor, for `cart`, than what the cart needs.
   */
  amount: amount.optional(),
};

/**
 * POST /api/payment/makePayment: pays the cart, or loads credits (`purpose`, card and crypto).
 * - `balance`: pays the cart from the balance only (422 `balance` when it does not cover the total); its
 *   purpose can only be `cart`.
 * - `card`: loads with the card token first; with purpose `cart` (the default) it then pays the cart from
 *   the balance, with `load` the cart stays as it is. The answer may be `requires_action` with
 *   `next_action.url` (the confirmation step): send the browser there; it comes back to `return_path`
 *   (default /checkout/cart) with ?payment={id}; then poll getPayment/{id}, or call makePayment again with
 *   the same key.
 * - `crypto`: opens an invoice (address, amount, expiry) and answers `pending`; the provider's signed
 *   webhook credits it and then, for purpose `cart`, the cart is paid. Poll getPayment/{id}.
 * The cart may be empty for a plain load (card or crypto, either purpose). `expected_total` is checked
 * for `cart` only (a load does not read the cart). The same key with another method, amount or purpose is
 * another request, refused (422 `idempotency_key`).
 */
export const MakePaymentBody = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('balance'), ...payCommon, purpose: z.literal('cart').optional() }),
  z.strictObject({
    method: z.literal('card'),
    ...loadCommon,
    /**
     * A token of the provider's tokenizer (fresh, or saved on this device). Left out for an acquirer with a
     * hosted payment page (`methods.card.hosted`): the answer is `requires_action` with its address.
     */
    card_token: z
      .string()
      .min(4)
      .max(200)
      .regex(/^[A-Za-z0-9_-]+$/)
      .optional(),
    return_path: z
      .string()
      .max(200)
      .regex(/^\/[A-Za-z0-9/_-]*$/)
      .optional(),
  }),
  z.strictObject({ method: z.literal('crypto'), ...loadCommon }),
]);
export type MakePaymentBody = z.infer<typeof MakePaymentBody>;

export const PAYMENT_STATUSES = ['pending', 'requires_action', 'succeeded', 'failed', 'expired'] as const;
export const ORDER_STATUSES = ['pending', 'paid', 'failed'] as const;

export const CryptoInvoice = z.object({
  /** Where to send the coins. */
  address: z.string(),
  /** Amount due in the coin, as the provider states it (e.g. "0.00012345"). */
  crypto_amount: z.string(),
  crypto_currency: z.string(),
  /** The provider's checkout page, when it has one. */
  checkout_url: z.string().nullable(),
  expires_at: z.string(),
  /**
   * Sandbox only: the test processor's "simulate payment" control (POST, no body), which pays the invoice
   * and delivers its signed webhook. Absent or null for a real processor.
   */
  simulate_url: z.string().nullish(),
});
export type CryptoInvoice = z.infer<typeof CryptoInvoice>;

export const PaymentView = z.object({
  id: z.number(),
  method: LoadMethod,
  provider: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.number(),
  currency: z.string(),
  /** Card: the last four digits the provider reported. */
  card_last4: z.string().nullable(),
  /** requires_action: where the browser completes the confirmation step. */
  next_action: z.object({ type: z.literal('redirect'), url: z.string() }).nullable(),
  invoice: CryptoInvoice.nullable(),
  created_at: z.string(),
});
export type PaymentView = z.infer<typeof PaymentView>;

export const OrderView = z.object({
  id: z.number(),
  status: z.enum(ORDER_STATUSES),
  total: z.number(),
  items: z.array(z.object({ product: ProductCode, price: z.number(), city_id: z.number().nullable() })),
  created_at: z.string(),
});
export type OrderView = z.infer<typeof OrderView>;

/**
 * makePayment and getPayment/{id}. `status`:
 * - `paid`: the order is paid (and the load, if any, credited); the cart is emptied of its items;
 * - `loaded`: a load (purpose `load`, or an empty cart) was credited; the cart is as it was;
 * - `requires_action`: card confirmation step pending (payment.next_action);
 * - `pending`: waiting for the provider (crypto invoice, or a card answer not settled yet);
 * - `failed`: the payment failed or expired; nothing was charged or credited.
 */
export const PaymentResult = z.object({
  status: z.enum(['paid', 'loaded', 'requires_action', 'pending', 'failed']),
  order: OrderView.nullable(),
  payment: PaymentView.nullable(),
  balance: z.number(),
  position: z.number().nullable(),
  cart: Cart,
});
export type PaymentResult = z.infer<typeof PaymentResult>;
export const PaymentResultResponse = z.object({ data: PaymentResult });
export type PaymentResultResponse = z.infer<typeof PaymentResultResponse>;

export const PaymentIdParam = z.object({ paymentId: id });

// ---------------------------------------------------------------- transactions

/** POST /api/payment/getTransactions?page: an admin reads anyone's, an advertiser only their own (else 403). */
export const TransactionsBody = z.strictObject({ user_id: id });
export type TransactionsBody = z.infer<typeof TransactionsBody>;
/** GET /api/payment/getTransactionsCsv?user_id=: the same rows as CSV (a download). */
export const TransactionsCsvQuery = z.strictObject({ user_id: id });

export const Transaction = z.object({
  /** Ledger entry id (newest first). */
  id: z.number(),
  date: z.string(),
  kind: z.enum(TRANSACTION_KINDS),
  /** Signed: + credits loaded or given, - credits spent or taken. */
  amount: z.number(),
  balance_after: z.number(),
  /** ORD-…, the payment's reference (card •••• 4242, invoice, bank reference) or the admin's reason. */
  reference: z.string(),
  /** What was bought (purchases), empty otherwise. */
  products: z.array(ProductCode),
  method: LoadMethod.nullable(),
  /** A credited load's payment id: its receipt is GET /api/payment/receipt/{receipt_id}; null otherwise. */
  receipt_id: z.number().nullable(),
});
export type Transaction = z.infer<typeof Transaction>;

/**
 * GET /api/payment/receipt/{paymentId}?lang=&download=: a credited load's receipt as a printable HTML page
 * (decision 0422); `download=1` sends the same page as a file.
 */
export const ReceiptQuery = z.strictObject({
  lang: z.enum(LANGUAGES).optional(),
  download: z.literal('1').optional(),
});

export const TransactionsPage = z.object({
  data: z.array(Transaction),
  page: z.number(),
  has_more: z.boolean(),
  total: z.number(),
  balance: z.number(),
  currency: z.string(),
});
export type TransactionsPage = z.infer<typeof TransactionsPage>;

// ---------------------------------------------------------------- admin

/** POST /api/admin/adjustBalance: a correction, as a new ledger pair (never an edit). */
export const AdjustBalanceBody = z.strictObject({
  user_id: id,
  /** Signed, non-zero; a debit may not take the balance below zero. */
  amount: z
    .number()
    .int()
    .min(-1_000_000_000)
    .max(1_000_000_000)
    .refine((v) => v !== 0, messageText('validation.amountNotZero')),
  reason: withoutControlCharacters(z.string(), 'Reason').trim().min(3).max(500),
  idempotency_key: IdempotencyKey,
});
export type AdjustBalanceBody = z.infer<typeof AdjustBalanceBody>;

/** POST /api/admin/recordBankTransfer: credits a received transfer by its reference, once per bank transaction. */
export const RecordBankTransferBody = z.strictObject({
  reference: withoutControlCharacters(z.string(), 'Reference').trim().min(3).max(40),
  amount,
  /** The bank's own id of the incoming transfer: recording it twice credits once. */
  bank_transaction_id: withoutControlCharacters(z.string(), 'Bank transaction id').trim().min(1).max(100),
});
export type RecordBankTransferBody = z.infer<typeof RecordBankTransferBody>;

export const LedgerChange = z.object({
  user_id: z.number(),
  balance: z.number(),
  transaction_id: z.number(),
  /** The same key / bank transaction was recorded before: nothing changed this time. */
  duplicate: z.boolean(),
});
export const LedgerChangeResponse = z.object({ data: LedgerChange });

// ---------------------------------------------------------------- refunds and holds (decision 0423)

/** GET /api/admin/loads/{paymentId}: a load as the refund form shows it. */
export const RefundableLoad = z.object({
  payment_id: z.number(),
  user_id: z.number(),
  method: LoadMethod,
  provider: z.string(),
  /** What the load credited, minor units. */
  amount: z.number(),
  /** Refunded and charged back of it so far. */
  reversed: z.number(),
  /** What may still be refunded. */
  refundable: z.number(),
  currency: z.string(),
  settled_at: z.string().nullable(),
  /**
   * provider: refunded through the provider's API now; hand: recorded by hand (the money went back
   * another way); at_provider: made in the provider's back office, its notification books it.
   */
  via: z.enum(['provider', 'hand', 'at_provider']),
});
export type RefundableLoad = z.infer<typeof RefundableLoad>;
export const RefundableLoadResponse = z.object({ data: RefundableLoad });

/** POST /api/admin/refundLoad: refunds (part of) a credited load; once per key. */
export const RefundLoadBody = z.strictObject({
  payment_id: id,
  /** Minor units; the whole refundable rest when left out. */
  amount: amount.optional(),
  reason: withoutControlCharacters(z.string(), 'Reason').trim().min(3).max(500),
  idempotency_key: IdempotencyKey,
});
export type RefundLoadBody = z.infer<typeof RefundLoadBody>;

export const RefundResult = z.object({
  payment_id: z.number(),
  user_id: z.number(),
  /** The advertiser's balance after it (below zero when the credits were spent). */
  balance: z.number(),
  refunded: z.number(),
  refundable: z.number(),
  /** The account is held now (its balance went below zero). */
  held: z.boolean(),
  /** The same key was refunded before: nothing changed this time. */
  duplicate: z.boolean(),
  /**
   * Where the buyer claims the refund, when the provider pays refunds out that way (BTCPay's pull payment:
   * send it to the advertiser); null otherwise.
   */
  claim_url: z.string().nullable(),
});
export const RefundResultResponse = z.object({ data: RefundResult });

/** GET /api/admin/heldAccounts: the admin's queue of held accounts, longest held first. */
export const HeldAccount = z.object({
  user_id: z.number(),
  username: z.string(),
  balance: z.number(),
  reason: z.enum(HOLD_REASONS),
  since: z.string(),
  /**
   * Charged to her beyond a load (refunds and chargebacks that together took more than it credited, both
   * booked because the money left), not yet looked at: releasing the hold marks it looked at. 0: none.
   */
  beyond_load: z.number(),
});
/**
 * A provider's signed notification that named no payment of ours (decision 0420): kept for an admin to
 * match, and listed until the same event naming the right payment is applied.
 */
export const UnmatchedNotification = z.object({
  provider: z.string(),
  event_id: z.string(),
  type: z.string(),
  /** What it named: our reference (`pay_<id>`) and/or the provider's id of the sale, charge or invoice. */
  reference: z.string(),
  /** Minor units, when it carried one. */
  amount: z.number().nullable(),
  deliveries: z.number(),
  received_at: z.string(),
});
export const HeldAccountsResponse = z.object({
  data: z.array(HeldAccount),
  currency: z.string(),
  unmatched: z.array(UnmatchedNotification),
});
export type HeldAccountsResponse = z.infer<typeof HeldAccountsResponse>;

/** POST /api/admin/releaseHold: lets a held account spend again (not while its balance is below zero). */
export const ReleaseHoldBody = z.strictObject({
  user_id: id,
  reason: withoutControlCharacters(z.string(), 'Reason').trim().min(3).max(500),
});
export type ReleaseHoldBody = z.infer<typeof ReleaseHoldBody>;
export const ReleaseHoldResponse = z.object({ data: z.object({ user_id: z.number(), released: z.boolean() }) });
