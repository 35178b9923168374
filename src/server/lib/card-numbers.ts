// Primary account numbers in text (PCI DSS: we must store none; issue 21 item 3, issue 42 item 4,
// decisions 0810 and 0811). The text is read as a person reads it: Unicode-normalised (NFKC: full-width
// and other compatibility digits are digits, a no-break or thin space is a space), digits of any script
// read as 0-9, invisible characters (zero-width spaces, soft hyphens, joiners: Unicode's format
// characters) and combining marks left out. Its digits fall into groups; groups that only non-letters
// separate (any spaces, tabs, newlines and runs of them, dashes, dots, slashes, underscores, anything that
// is no letter) are read together, and a span of whole groups of 13 to 19 digits that starts like a card
// brand's numbers, has one of that brand's lengths (credit-card-type, Braintree's list) and passes the
// Luhn check is a card number, unless a person would read those digits as something else:
//
// - a phone number: the digits right after a "+" (15 or fewer: E.164's longest number), and the groups
//   after them while they are split as phone numbers are and hold 15 digits in all: no card starts there;
// - a list of short numbers: a group of fewer than 4 digits but the last (times "21:00-23:30", dates
//   "07.12.2026", prices "100/150/200", "555-010-0199"); digits written one by one with the same thing
//   between them ("4 1 1 1 ...") are read together, as one group;
// - a list of numbers: four groups or more of 2 digits or more, each ending but not starting in 0
//   ("2500 3000 3500 4000"), or two groups that are years ten or fewer apart ("4000 | 2019-2026");
// - a UUID (8-4-4-4-12 hex digits, as crypto.randomUUID writes the clients' idempotency keys, 0811).
import creditCardType from 'credit-card-type';

/** The Luhn check of the digits d[start..end). */
function luhnAt(d: Uint8Array, start: number, end: number): boolean {
  let sum = 0;
  for (let k = end - 1, i = 0; k >= start; k--, i++) {
    let x = d[k];
    if (i % 2 === 1) {
      x *= 2;
      if (x > 9) x -= 9;
    }
    sum += x;
  }
  return sum % 10 === 0;
}

const digitArray = (digits: string) => Uint8Array.from(digits, (c) => c.charCodeAt(0) - 48);

export const luhnValid = (digits: string): boolean => luhnAt(digitArray(digits), 0, digits.length);

/**
 * The brands' prefixes as credit-card-type reads them (every brand in its order, each brand's first
 * matching prefix; the longest prefix wins, the first brand on a tie), as [min, max, digits] ranges:
 * creditCardType() itself takes about 30 us a call, too slow for every span of every text.
 */
const BRANDS = creditCardType('').map((brand) => ({
  lengths: brand.lengths,
  prefixes: brand.patterns.map((p) =>
    Array.isArray(p) ? [p[0], p[1], String(p[0]).length] : [p, p, String(p).length],
  ),
}));
const PREFIX_DIGITS = Math.max(...BRANDS.flatMap((b) => b.prefixes.map((p) => p[2])));
const byPrefix = new Map<number, number[]>();

/** The lengths of the brand whose numbers start like d[start..] (PREFIX_DIGITS there or more), else none. */
function brandLengthsAt(d: Uint8Array, start: number): number[] {
  const prefixes = [0];
  for (let k = 0; k < PREFIX_DIGITS; k++) prefixes.push(prefixes[k] * 10 + d[start + k]);
  const known = byPrefix.get(prefixes[PREFIX_DIGITS]);
  if (known) return known;
  let best: number[] = [];
  let strength = 0;
  for (const brand of BRANDS) {
    for (const [min, max, length] of brand.prefixes) {
      const prefix = prefixes[length];
      if (prefix < min || prefix > max) continue;
      if (length > strength) {
        strength = length;
        best = brand.lengths;
      }
      break;
    }
  }
  if (byPrefix.size >= 100_000) byPrefix.clear();
  byPrefix.set(prefixes[PREFIX_DIGITS], best);
  return best;
}

/** The lengths of the brand whose numbers start like these digits (8 or more of them), else none. */
export const brandLengths = (digits: string): number[] => brandLengthsAt(digitArray(digits.padEnd(8, '0')), 0);

/** d[start..end) is a card number of some brand. */
const cardAt = (d: Uint8Array, start: number, end: number) =>
  end - start >= 13 && end - start <= 19 && luhnAt(d, start, end) && brandLengthsAt(d, start).includes(end - start);

/** Exactly these digits are a card number of some brand. */
export const isCardNumber = (digits: string): boolean =>
  /^\d{13,19}$/.test(digits) && cardAt(digitArray(digits), 0, digits.length);

// ---------------------------------------------------------------- the text as a person reads it

const DIGIT = /\p{Nd}/u;
const UNSEEN = /[\p{Cf}\p{M}]/u;
const seen = new Map<number, string>();

/** The value 0-9 of a decimal digit of any script: Unicode writes each script's digits as 0 to 9 in a row. */
function digitValue(cp: number): number {
  let steps = 0;
  while (steps < 60 && DIGIT.test(String.fromCodePoint(cp - steps - 1))) steps++;
  return steps % 10;
}

/** What a character outside ASCII reads as: NFKC, digits as 0-9, format characters and marks left out. */
function readCodePoint(cp: number): string {
  let out = seen.get(cp);
  if (out === undefined) {
    out = '';
    for (const c of String.fromCodePoint(cp).normalize('NFKC')) {
      if (UNSEEN.test(c)) continue;
      out += DIGIT.test(c) ? String(digitValue(c.codePointAt(0)!)) : c;
    }
    if (seen.size < 10_000) seen.set(cp, out);
  }
  return out;
}

interface Reading {
  /** The text as read; its digits are ASCII. */
  text: string;
  /** For each character of `text`, where the character it came from starts in the original (null: the same). */
  from: Uint32Array | null;
  digits: number;
}

function read(text: string): Reading {
  let digits = 0;
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) break;
    if (c >= 48 && c <= 57) digits++;
  }
  if (i === text.length) return { text, from: null, digits };
  const parts: string[] = [text.slice(0, i)];
  let from = new Uint32Array(text.length + 16);
  for (let k = 0; k < i; k++) from[k] = k;
  let n = i;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    const r = cp < 128 ? text[i] : readCodePoint(cp);
    if (n + r.length > from.length) {
      const more = new Uint32Array(from.length * 2 + r.length);
      more.set(from);
      from = more;
    }
    for (let k = 0; k < r.length; k++) {
      const c = r.charCodeAt(k);
      if (c >= 48 && c <= 57) digits++;
      from[n++] = i;
    }
    parts.push(r);
    i += cp > 0xffff ? 2 : 1;
  }
  return { text: parts.join(''), from, digits };
}

// ---------------------------------------------------------------- groups, runs and spans

/** A whole UUID token: not preceded or followed by a letter, a digit or a dash. */
const UUID = /(?<![0-9A-Za-z-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z-])/gi;
const LETTER = /\p{L}/u;
/** What may stand between a "+" and the first digits of a phone number: "+44", "+ 44", "(+44)", "+(44)". */
const PHONE_START = /\+[\s(]*$/u;
/**
 * What splits a phone number's groups: one space, dash, dot or slash, or a parenthesis ("+44 20 7946 0000",
 * "+1 (555) 010-0199", "+49 30/1234567", "+44 (0)20"). " / " or ", " ends it: a list goes on from there.
 */
const PHONE_GAP = /^(?:\s|[-./\u2010-\u2015\u2212]|\s?\(|\)\s?)$/u;
/** E.164: a phone number has at most 15 digits; more after a "+" are no phone number. */
const PHONE_DIGITS = 15;

interface Group {
  start: number;
  end: number;
  digits: string;
  /** The groups of one run share it: only non-letters stand between them. */
  run: number;
  /** Digits written one by one ("4 1 1 1 ..."), read together as one group; what stands between them. */
  singles: boolean;
  between?: string;
  /** Part of a phone number (a "+" and the groups after it, at most 15 digits). */
  phone: boolean;
}

function groupsOf(text: string): Group[] {
  const t = text.includes('-') ? text.replace(UUID, (m) => 'u'.repeat(m.length)) : text;
  const groups: Group[] = [];
  let run = -1;
  let last = 0;
  /** The groups of the phone number being read. */
  let phone: Group[] = [];
  const endPhone = () => {
    if (!phone.length) return;
    const digits = phone.reduce((n, g) => n + g.digits.length, 0);
    // Its first digits are a phone number's, whatever follows ("+4915112345678 24/7"); the rest only
    // within 15 digits.
    phone[0].phone = phone[0].digits.length <= PHONE_DIGITS;
    if (digits <= PHONE_DIGITS) for (const g of phone) g.phone = true;
    phone = [];
  };
  for (const m of t.matchAll(/\d+/g)) {
    const gap = t.slice(last, m.index);
    last = m.index + m[0].length;
    const prev = groups.at(-1);
    const newRun = !prev || LETTER.test(gap);
    const plus = PHONE_START.test(gap);
    if (!newRun && !plus && m[0].length === 1 && prev.singles && (prev.between ?? gap) === gap) {
      prev.end = last;
      prev.digits += m[0];
      prev.between = gap;
      continue;
    }
    if (newRun) run++;
    const g: Group = { start: m.index, end: last, digits: m[0], run, singles: m[0].length === 1, phone: false };
    if (plus) {
      endPhone();
      phone.push(g);
    } else if (phone.length && !newRun && PHONE_GAP.test(gap)) phone.push(g);
    else endPhone();
    groups.push(g);
  }
  endPhone();
  return groups;
}

/**
 * A list of numbers rather than one number: four groups or more, each of 2 digits or more, not starting
 * but ending in 0 (prices, amounts: "2500 3000 3500 4000"; "4000 0000 0000 3220" is a card), or two of its groups years (1900-2099) ten or fewer apart
 * ("4000 | 2019-2026").
 */
function listOfNumbers(groups: Group[], from: number, to: number): boolean {
  if (from === to) return false;
  // Four numbers or more: a card written 4-6-5 would pass as three round numbers once in 1,000.
  let round = to - from >= 3;
  const years: number[] = [];
  for (let k = from; k <= to; k++) {
    const { digits } = groups[k];
    if (digits.length < 2 || digits[0] === '0' || !digits.endsWith('0')) round = false;
    if (digits.length === 4 && (digits.startsWith('19') || digits.startsWith('20'))) {
      const year = Number(digits);
      if (years.some((y) => Math.abs(y - year) <= 10)) return true;
      years.push(year);
    }
  }
  return round;
}

/**
 * Where card numbers are in the text as read, as [start, end) ranges (they may overlap): spans of groups
 * of one run that start outside a phone number and are written as a card number could be, in groups of
 * 4 digits or more but the last (4-4-4-4, 4-6-5, 8-8, "4242 4242 4242 4242 123").
 */
function cardRangesIn(text: string): Array<[number, number]> {
  const groups = groupsOf(text);
  // The digits of every group one after the other; group k's are d[at[k]..at[k + 1]).
  const at = [0];
  for (const g of groups) at.push(at.at(-1)! + g.digits.length);
  const d = new Uint8Array(at.at(-1)!);
  groups.forEach((g, k) => {
    for (let c = 0; c < g.digits.length; c++) d[at[k] + c] = g.digits.charCodeAt(c) - 48;
  });
  const found: Array<[number, number]> = [];
  for (let i = 0; i < groups.length; i++) {
    if (groups[i].phone) continue;
    for (let j = i; j < groups.length && groups[j].run === groups[i].run; j++) {
      if (j > i && groups[j - 1].digits.length < 4) break;
      if (at[j + 1] - at[i] > 19) break;
      if (cardAt(d, at[i], at[j + 1]) && !listOfNumbers(groups, i, j)) found.push([groups[i].start, groups[j].end]);
    }
  }
  return found;
}

/** The card numbers of a text: ranges of the original text, in order, overlapping ones merged. */
function cardRanges(text: string): Array<[number, number]> {
  const r = read(text);
  if (r.digits < 13) return [];
  const ranges = cardRangesIn(r.text)
    .map(([s, e]): [number, number] => {
      if (!r.from) return [s, e];
      const last = r.from[e - 1];
      return [r.from[s], last + (text.codePointAt(last)! > 0xffff ? 2 : 1)];
    })
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const prev = merged.at(-1);
    if (prev && range[0] < prev[1]) prev[1] = Math.max(prev[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

export const hasCardNumber = (text: string): boolean => cardRanges(text).length > 0;

/** The text with every card number in it replaced by `[card]`. */
export function maskCardNumbers(text: string): string {
  let out = '';
  let at = 0;
  for (const [s, e] of cardRanges(text)) {
    out += text.slice(at, s) + '[card]';
    at = e;
  }
  return out + text.slice(at);
}

/**
 * The text with each digit of a card number in it replaced by `#` (what stands between them is kept):
 * "Agent/4111 1111 1111 1111" -> "Agent/#### #### #### ####".
 */
export function scrubCardNumbers(text: string): string {
  let out = '';
  let at = 0;
  for (const [s, e] of cardRanges(text)) {
    out += text.slice(at, s);
    for (const ch of text.slice(s, e)) out += /\d/.test(read(ch).text) ? '#' : ch;
    at = e;
  }
  return out + text.slice(at);
}

/**
 * A request header as it may be stored (the User-Agent of a session): card numbers scrubbed, then cut to
 * `max` characters (whole code points), so no part of a number is kept either.
 */
export function headerToStore(value: string | undefined, max: number): string {
  return Array.from(scrubCardNumbers(value ?? ''))
    .slice(0, max)
    .join('');
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
