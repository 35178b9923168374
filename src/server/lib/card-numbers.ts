// Primary account numbers in text (PCI DSS: we must store none, issue 21 item 3). A card number is a run
// of 13 to 19 digits, written together or in groups split by single spaces or dashes, that starts like a
// card brand's numbers, has one of that brand's lengths (credit-card-type, Braintree's list) and passes
// the Luhn check. Found anywhere in a text: "k_4111111111111111", "bt 3782 8224 6310 005" and
// "my card 4000 0000 0100 1074 exp 12/30" all hold one. A run written from "+" is a phone number, and a
// UUID (8-4-4-4-12 hex digits, as crypto.randomUUID writes the clients' idempotency keys) is an identifier:
// its digit groups read as dashed groups held a card number in about one UUID of 2,000 (decision 0811).
import creditCardType from 'credit-card-type';

/** Digits with single spaces or dashes between them; the character before it, to tell a "+". */
const RUN = /(^|[^\d])(\d(?:[ -]?\d)*)/g;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A whole UUID token: not preceded or followed by a letter, a digit or a dash. */
const UUID = /(?<![0-9A-Za-z-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z-])/gi;

/** The text with each UUID's characters replaced by letters, so no run of digits starts or ends in one. */
const withoutUuids = (text: string) => (text.includes('-') ? text.replace(UUID, (m) => 'u'.repeat(m.length)) : text);

/** Exactly these digits are a card number of some brand. */
export function isCardNumber(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19 || !/^\d+$/.test(digits)) return false;
  return luhnValid(digits) && creditCardType(digits).some((brand) => brand.lengths.includes(digits.length));
}

/**
 * The card numbers in a run of digit groups: any span of whole groups of 13 to 19 digits ("4242 4242 4242
 * 4242 123" holds one, the CVC after it too), never a part of a group (a 25-digit reference is none).
 */
function cardsInRun(run: string): Array<[number, number]> {
  const groups: Array<{ start: number; end: number; length: number }> = [];
  for (const m of run.matchAll(/\d+/g))
    groups.push({ start: m.index, end: m.index + m[0].length, length: m[0].length });
  const found: Array<[number, number]> = [];
  for (let i = 0; i < groups.length; i++) {
    let digits = '';
    for (let j = i; j < groups.length; j++) {
      digits += run.slice(groups[j].start, groups[j].end);
      if (digits.length > 19) break;
      if (digits.length >= 13 && isCardNumber(digits)) found.push([groups[i].start, groups[j].end]);
    }
  }
  return found;
}

/** Where card numbers are in the text, as [start, end) ranges (they may overlap). */
function cardRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const m of withoutUuids(text).matchAll(RUN)) {
    if (m[1] === '+') continue;
    const at = m.index + m[1].length;
    for (const [s, e] of cardsInRun(m[2])) ranges.push([at + s, at + e]);
  }
  return ranges;
}

export const hasCardNumber = (text: string): boolean => text.length >= 13 && cardRanges(text).length > 0;

/** The text with every card number in it replaced by `[card]`. */
export function maskCardNumbers(text: string): string {
  const ranges = cardRanges(text).sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [s, e] of ranges) {
    if (e <= at) continue;
    out += text.slice(at, Math.max(at, s)) + (s >= at ? '[card]' : '');
    at = e;
  }
  return out + text.slice(at);
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
