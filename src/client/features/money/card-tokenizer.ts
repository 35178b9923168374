// The card leaves the browser for the provider's tokenizer only (PCI DSS SAQ-A, DESIGN.md "Money"):
// number, expiry and CVC are posted to `tokenize_url`, never to /api, and what comes back is a token
// our API may see. Not through the API client on purpose: this is a third party's endpoint, with its
// own answers (402 with a code), and it gets no cookie of ours.

export interface CardDetails {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  name?: string;
}

export interface CardToken {
  token: string;
  last4: string;
  brand: string;
}

/** Why the tokenizer refused: its codes, plus `unreachable` and `rate_limited`. */
export type CardRefusal = 'invalid_number' | 'invalid_expiry' | 'invalid_cvc' | 'rate_limited' | 'unreachable';

export class CardRefused extends Error {
  constructor(readonly code: CardRefusal) {
    super(code);
    this.name = 'CardRefused';
  }
}

const KNOWN: CardRefusal[] = ['invalid_number', 'invalid_expiry', 'invalid_cvc'];

export async function tokenizeCard(url: string, card: CardDetails): Promise<CardToken> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ ...card, number: card.number.replace(/\D/g, '') }),
      credentials: 'omit',
    });
  } catch {
    throw new CardRefused('unreachable');
  }
  if (response.status === 429) throw new CardRefused('rate_limited');
  const body = (await response.json().catch(() => null)) as {
    id?: string;
    card?: { last4?: string; brand?: string };
    error?: { code?: string };
  } | null;
  if (response.ok && body?.id && body.card?.last4)
    return { token: body.id, last4: body.card.last4, brand: body.card.brand ?? '' };
  const code = body?.error?.code as CardRefusal | undefined;
  throw new CardRefused(code && KNOWN.includes(code) ? code : 'unreachable');
}

/** "MM/YY" or "MM/YYYY" -> month and four-digit year, or null. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

/** Groups of four as the number is typed ("4242 4242 4242 4242"), digits only, 19 at most. */
export function formatCardNumber(text: string): string {
  return text
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1228" or "12/28" typed -> "12/28". */
export function formatExpiry(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}
