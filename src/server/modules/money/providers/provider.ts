// One interface for every way money comes in by itself (docs/decisions/0400): a card acquirer or a crypto
// processor. The money service never knows which one it talks to. A bank transfer is no provider: an
// admin records it.
import type { CryptoInvoice } from '#shared/schemas/money.ts';

export type ProviderStatus = 'succeeded' | 'requires_action' | 'pending' | 'failed' | 'expired';

/** What the provider says about one payment, now. */
export interface ProviderState {
  status: ProviderStatus;
  /** The provider's id of the charge or invoice. */
  ref: string;
  /** Why it failed: `card_declined`, `authentication_failed`, `invalid_token`, `expired`... */
  failure?: string;
  /** The amount the provider confirms, minor units (settled states). */
  amount?: number;
  last4?: string | null;
  /** requires_action: where the payer completes the confirmation step. */
  redirectUrl?: string;
  invoice?: CryptoInvoice;
}

export interface StartInput {
  paymentId: number;
  amount: number;
  currency: string;
  /** Stable per payment (`pay_<id>`): the provider answers a repeated start with the first charge or invoice. */
  idempotencyKey: string;
  cardToken?: string;
  /** Absolute URL the payer returns to after a confirmation step or a hosted checkout. */
  returnUrl: string;
}

/** A webhook whose signature checked out. */
export interface WebhookEvent {
  /** The provider's id of this event (a redelivery keeps it), for exactly-once handling. */
  id: string;
  type: string;
  /**
   * Which of a provider name's methods it is about, when one name serves both (the sandbox's card acquirer
   * and crypto processor share `sandbox` and its webhook address).
   */
  method?: 'card' | 'crypto';
  /** The charge or invoice it is about, and our payment id when the provider echoes it. */
  ref: string | null;
  paymentId: number | null;
  /**
   * The payment's state as the notification itself says it, for a provider whose signed notification is
   * the record (Verotel FlexPay's postback, decision 0420): applied as it is, without reading back.
   */
  state?: ProviderState;
  /**
   * A refund or chargeback of a settled payment, as the provider's signed notification states it
   * (decision 0423): booked once by `id` (the provider's id of the refund or chargeback).
   */
  reversal?: { kind: 'refund' | 'chargeback'; id: string; amount: number };
}

/** What a provider's refund API answered: its id of the refund (the same for a repeated key). */
export interface RefundResult {
  id: string;
  /** Where the buyer claims it, when the provider pays refunds out that way (BTCPay's pull payment). */
  link?: string | null;
}

/** The provider refused a refund (more than the payment took, a payment it does not know). */
export class RefundRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RefundRefused';
  }
}

/** Where a notification came from (a provider may publish the addresses it sends from). */
export interface WebhookSource {
  ip: string;
}

export class WebhookRejected extends Error {
  constructor(
    readonly status: 400 | 401 | 403,
    reason: string,
  ) {
    super(reason);
    this.name = 'WebhookRejected';
  }
}

/** The provider could not be reached or answered nonsense: nothing is known, try again later. */
export class ProviderUnavailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ProviderUnavailable';
  }
}

export interface PaymentProvider {
  readonly name: string;
  readonly method: 'card' | 'crypto';
  /** A test provider: the UI says so. */
  readonly sandbox: boolean;
  /** A real provider's account in its test mode (no real money moves): the admin and the UI say so. */
  readonly testMode?: boolean;
  /**
   * Card providers: where the browser sends the card to get a token (never our API). Without it the card
   * is entered on the provider's hosted payment page: `start` answers `requires_action` with its address.
   */
  readonly tokenizeUrl?: string;
  /** Charges the card or opens the invoice; idempotent by input.idempotencyKey. */
  start(input: StartInput): Promise<ProviderState>;
  /** The payment as the provider sees it now; null when the provider never heard of it. */
  fetch(payment: {
    idempotencyKey: string;
    providerRef: string | null;
    createdAt?: Date;
  }): Promise<ProviderState | null>;
  /**
   * Refunds `amount` of a settled payment through the provider's API, idempotent by `key`; throws
   * RefundRefused or ProviderUnavailable. Absent: the provider has no refund API for us.
   */
  refund?(input: { providerRef: string; amount: number; currency: string; key: string }): Promise<RefundResult>;
  /**
   * Refunds are made in the provider's own back office and reach us only as its notification (Verotel
   * FlexPay's `event=credit`): an admin does not record them by hand (they would be booked twice).
   */
  readonly refundsByNotification?: boolean;
  /**
   * Checks the signature over the raw body (for a notification sent as a GET, its query string) and its
   * source, and reads the event; throws WebhookRejected.
   */
  parseWebhook?(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    source?: WebhookSource,
  ): WebhookEvent;
}

/** `pay_<id>` <-> payment id: the reference we give providers. */
export const providerKey = (paymentId: number) => `pay_${paymentId}`;
export const paymentIdOfKey = (key: unknown): number | null => {
  const m = typeof key === 'string' ? /^pay_(\d{1,10})$/.exec(key) : null;
  return m ? Number(m[1]) : null;
};
