// PCI DSS SAQ-A: a card number must never reach our API. The browser sends cards to the provider's
// tokenizer; if anything that looks like one (13 to 19 digits, spaces or dashes allowed, passing the Luhn
// check) arrives in a body or query of a money route anyway, the call is refused before it is read any
// further, and the number is neither stored nor logged (no hook or handler sees it after this).
import type { FastifyRequest } from 'fastify';
import { msg } from '#shared/api/messages.ts';
import { ValidationError } from '../../lib/errors';
import { luhnValid } from '../sandbox-acquirer/sandbox-acquirer.service';

const CANDIDATE = /\d(?:[ -]?\d){12,18}/g;
const isCardNumber = (digits: string) => /^\d{13,19}$/.test(digits) && luhnValid(digits);

/**
 * Keys and ids are random text that can hold a run of digits by chance: in these fields only a value
 * that is, as a whole, a card number counts. Everywhere else any run of digits inside the text does.
 */
const ID_FIELDS = new Set(['idempotency_key', 'card_token', 'uid', 'reference', 'bank_transaction_id']);

function hasCardNumber(value: unknown, key = '', depth = 0): boolean {
  if (depth > 8) return false;
  if (typeof value === 'number') return hasCardNumber(String(value), key, depth + 1);
  if (typeof value === 'string') {
    if (ID_FIELDS.has(key)) return isCardNumber(value.replace(/[ -]/g, ''));
    return [...value.matchAll(CANDIDATE)].some((m) => isCardNumber(m[0].replace(/\D/g, '')));
  }
  if (Array.isArray(value)) return value.some((v) => hasCardNumber(v, key, depth + 1));
  if (value && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => hasCardNumber(k, '', depth + 1) || hasCardNumber(v, k, depth + 1));
  return false;
}

/** The text with every card number in it replaced by `[card]`. */
export function maskCardNumbers(text: string): string {
  return text.replace(CANDIDATE, (run) => (isCardNumber(run.replace(/\D/g, '')) ? '[card]' : run));
}

/** A URL as a log line shows it: decoded (so `card%204242...` is seen as a number too), card numbers masked. */
export function urlForLog(url: string): string {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url.replace(/\+/g, ' '));
  } catch {
    // Not valid percent-encoding: mask what is there.
  }
  return maskCardNumbers(decoded);
}

/** preValidation hook of the money and auto-topup routes. */
export async function refuseCardNumbers(request: FastifyRequest): Promise<void> {
  if (hasCardNumber(request.body) || hasCardNumber(request.query))
    throw ValidationError.field('card', msg('money.cardNumberRefused'));
}
