// One payment attempt between the method tabs (load-methods.tsx) and each method's form (card, crypto):
// in a file of their own so that the forms and the tabs do not import each other (issue 22 item 3).
import type { PaymentResult } from '../api';

/** What a method's form hands over: the rest of makePayment's body. */
export type PayRequest =
  | { method: 'crypto' }
  /** Without a token: the card is entered on the acquirer's hosted page (`methods.card.hosted`). */
  | { method: 'card'; card_token?: string };

/** The outcome of one attempt, for the method's form: field errors it shows itself, or nothing. */
export type PayOutcome = { ok: true; result: PaymentResult } | { ok: false; fields: Record<string, string> };
