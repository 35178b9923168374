// What counts as a card number in text (issue 21 item 3, issue 42 item 4; decisions 0810, 0811): the text
// as a person reads it (NFKC, digits of any script, invisible characters left out), digits with any
// non-letter between them, brand prefix and length, Luhn; and what a person reads as something else
// (phone numbers from "+", lists of prices, times, dates and years, UUIDs) is none.
import crypto from 'node:crypto';
import creditCardType from 'credit-card-type';
import { describe, expect, it } from 'vitest';
import {
  brandLengths,
  hasCardNumber,
  headerToStore,
  isCardNumber,
  maskCardNumbers,
  scrubCardNumbers,
  urlForLog,
} from './card-numbers';
import { BRANDS, CARD_WRITINGS, card, fullWidth, grouped } from '../test/card-writings';

describe('card numbers in text', () => {
  it.each([
    ['4111111111111111'],
    ['k_4111111111111111'],
    ['tok_5555555555554444'],
    ['bt 3782 8224 6310 005'],
    ['adj_6011111111111117'],
    ['my card 4000 0000 0100 1074 exp 12/30 cvc 123'],
    ['4242 4242 4242 4242 123'],
    ['4242-4242-4242-4242'],
    ['pay to 3530111333300000, thanks'],
    ['6200000000000005'],
    ['4000 0000 0000 3220'], // groups that end in 0, but no round numbers: "0000" is no price
    ['2223003122003222'],
    ['card4242424242424242x'],
    // 16 digits or more after a "+" are no phone number (E.164: 15 at most).
    ['call +4242424242424242'],
    ['+49 4242 4242 4242 4242'],
    ['+44 7700 900123, 4242 4242 4242 4242'],
    ['4242+4242+4242+4242'],
  ])('finds one in %j', (text) => {
    expect(hasCardNumber(text)).toBe(true);
    expect(maskCardNumbers(text)).toContain('[card]');
    expect(maskCardNumbers(text)).not.toMatch(/\d{4}[ -]?\d{4}[ -]?\d{4}/);
  });

  describe.each(CARD_WRITINGS)('written with %s', (_name, write) => {
    it.each(BRANDS)('finds a card of prefix %s and length %i, alone and in a text, and masks it', (prefix, length) => {
      for (let n = 0; n < 20; n++) {
        const text = write(card(prefix, length));
        expect(hasCardNumber(text), JSON.stringify(text)).toBe(true);
        const masked = maskCardNumbers(`Hi, ${text} (thanks)`);
        expect(masked, JSON.stringify(text)).toMatch(/^Hi, .*\[card\].* \(thanks\)$/);
        expect(hasCardNumber(masked)).toBe(false);
      }
    });
  });

  it.each([
    ['+44 7700 900123'],
    ['+1 (555) 010-0199'],
    ['+49 30 1234567'],
    ['+49 (0)30 12345678'],
    ['(+44) 20 7946 0000'],
    ['+33 6 12 34 56 78'],
    ['+6281234567890'], // 13 digits from "+": a phone number (Indonesia), whatever its digits
    ['+378282246310005'], // 15: the longest phone number, so one
    ['+49 1511 2345678 24/7'],
    ['+44 20 7946 0000 / +44 20 7946 0001'],
    ['Tel. 0171 1234567 / 030 12345678'],
    ['555-010-0199 555-010-0123'],
    ['06 12 34 56 78 / 07 98 76 54 32'],
    ['612 345 678 / 698 765 432'],
    ['100/150/200'],
    ['100-150-200-250'],
    ['400/450/500/600/800/1000'],
    ['2500 3000 3500 4000'],
    ['200€ / 350€ / 500€ / 800€ / 1000€'],
    ['2026-12-07'],
    ['07.12.2026'],
    ['23.12.2026-27.12.2026'],
    ['30.12.2026 - 05.01.2027'],
    ['12/07/2026 - 15/07/2026'],
    ['21:00-23:30'],
    ['22:00-04:00 23:00-05:00'],
    ['Mon-Fri 10:00-22:00, Sat 12:00-20:00'],
    ['2019-2026'],
    ['2019 / 2020 / 2021 / 2022 / 2023'],
    ['4000 | 2019-2026'],
    ['90-60-90, 170/55'],
    ['192.168.100.200'],
    ['pay_123456'],
    ['order:98765'],
    ['4242424242424241'], // Luhn fails
    ['1234567890123456'], // no brand starts with 1
    ['1732694400000'], // a time in milliseconds
    ['0170 1234567'],
    ['4242424242424242424242424'], // 25 digits in one group: a reference, not a card
    ['12/30 123 2026-11-27'],
    [''],
    ['DE89 3704 0044 0532 0130 00'], // an IBAN
  ])('finds none in %j', (text) => {
    expect(hasCardNumber(text)).toBe(false);
    expect(maskCardNumbers(text)).toBe(text);
  });

  // Found by search, so each of them would be one without its rule.
  it('reads lists of round numbers and of years, and phone numbers from "+", as what they are', () => {
    const prices = [50, 100, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000];
    let round: string | undefined;
    for (let i = 0; !round && i < 100_000; i++) {
      const list = Array.from({ length: 4 }, () => prices[crypto.randomInt(prices.length)]);
      if (isCardNumber(list.join('')) && list.every((p) => p >= 1000)) round = list.join(' / ');
    }
    expect(round).toBeDefined();
    expect(hasCardNumber(round!), round).toBe(false);
    expect(hasCardNumber(round!.replace(/ \/ /g, ''))).toBe(true);
    let years: string | undefined;
    for (let i = 0; !years && i < 100_000; i++) {
      const text = `${4000 + crypto.randomInt(1000)} ${2019 + crypto.randomInt(8)} ${2019 + crypto.randomInt(8)} ${2019 + crypto.randomInt(8)}`;
      if (isCardNumber(text.replace(/ /g, ''))) years = text;
    }
    expect(years).toBeDefined();
    expect(hasCardNumber(years!), years).toBe(false);
    expect(hasCardNumber(years!.replace(/ /g, ''))).toBe(true);
    const visa = card('4', 16);
    // A 15-digit card after "+" is read as the phone number it could be; 16 digits could not be one.
    expect(hasCardNumber(`+${card('37', 15)}`)).toBe(false);
    expect(hasCardNumber(`+${visa}`)).toBe(true);
    expect(hasCardNumber(`+44 7700 900123 ${grouped(visa, ' ')}`)).toBe(true);
  });

  it('finds none in 13-19 digit numbers that fail the Luhn check, however written', () => {
    for (let n = 0; n < 2000; n++) {
      const [prefix, length] = BRANDS[n % BRANDS.length];
      const valid = card(prefix, length);
      const wrong = valid.slice(0, -1) + String((Number(valid.at(-1)) + 1 + crypto.randomInt(9)) % 10);
      // (19 digits written in fours are a 16-digit number and three more, as a card and its CVC are.)
      const [, write] = length === 19 ? ['', (d: string) => d] : CARD_WRITINGS[n % CARD_WRITINGS.length];
      expect(hasCardNumber(write(wrong)), write(wrong)).toBe(false);
      expect(hasCardNumber(wrong)).toBe(false);
    }
  });

  it('finds none in UUIDs, order and payment ids', () => {
    for (let n = 0; n < 20_000; n++) {
      const uuid = crypto.randomUUID();
      expect(hasCardNumber(uuid), uuid).toBe(false);
      expect(hasCardNumber(`k_${uuid}`), uuid).toBe(false);
    }
    for (let id = 1; id < 200_000; id += 997) {
      for (const text of [`pay_${id}`, `order:${id}`, `/edit/load/${id}`, `receipt-2026-${id}`]) {
        expect(hasCardNumber(text), text).toBe(false);
      }
    }
  });

  // crypto.randomUUID keys whose digit groups, read as a dashed number, pass as a card (one UUID in ~2,000).
  it.each([['1907cd3f-255a-4605-8119-729018190145'], ['5d434620-7708-4558-9612-59811f70e238']])(
    'takes the UUID %j for the identifier it is',
    (uuid) => {
      expect(hasCardNumber(uuid)).toBe(false);
      expect(hasCardNumber(uuid.toUpperCase())).toBe(false);
      expect(maskCardNumbers(`key ${uuid}.`)).toBe(`key ${uuid}.`);
      // Its groups do spell a card once the text around them is no UUID's.
      expect(hasCardNumber(`x-${uuid}`)).toBe(true);
      expect(hasCardNumber(`${uuid}-1`)).toBe(true);
      // A card beside a UUID is still found.
      expect(maskCardNumbers(`${uuid} card 4111 1111 1111 1111`)).toBe(`${uuid} card [card]`);
    },
  );

  it('knows the brands and their lengths as credit-card-type does', () => {
    expect(isCardNumber('378282246310005')).toBe(true);
    expect(isCardNumber('4242424242424242')).toBe(true);
    // A Luhn-valid 15-digit number starting with 4 is not a length Visa uses.
    expect(isCardNumber('424242424242426')).toBe(false);
    const lengths = (digits: string) => [...new Set(creditCardType(digits).flatMap((b) => b.lengths))].sort();
    for (let n = 0; n < 20_000; n++) {
      // Random numbers, and numbers at the brands' prefixes' edges.
      const digits =
        n % 2
          ? String(crypto.randomInt(1e9, 1e10)) + '0000000'
          : `${[4, 5, 6, 2, 3, 8, 1, 9][n % 8]}${String(crypto.randomInt(1e6)).padStart(6, '0')}${'0'.repeat(9)}`;
      expect(brandLengths(digits).slice().sort(), digits).toEqual(lengths(digits));
    }
  });

  it('masks decoded URLs for the log', () => {
    expect(urlForLog('/api/directory/search?q=4242%204242%204242%204242&page=1')).toBe(
      '/api/directory/search?q=[card]&page=1',
    );
    expect(urlForLog('/api/directory/search?q=4242%C2%A04242.4242%E2%80%8B4242&page=1')).toBe(
      '/api/directory/search?q=[card]&page=1',
    );
    expect(urlForLog('/api/x?q=%zz4111111111111111')).toBe('/api/x?q=%zz[card]');
  });

  it('reads digits written one by one as one number, apart from the digits before and after it', () => {
    const amex = card('37', 15);
    expect(hasCardNumber(`Mozilla/5.0 (${amex.split('').join(' ')}) Gecko`)).toBe(true);
    expect(hasCardNumber(`v 1.2 ${amex.split('').join('-')}`)).toBe(true);
    // A number that fails the Luhn check holds no card number among its digits either.
    const wrong = amex.slice(0, -1) + String((Number(amex.at(-1)) + 5) % 10);
    expect(hasCardNumber(wrong.split('').join(' '))).toBe(false);
  });

  it('scrubs the digits of a card number and keeps the rest of the text', () => {
    expect(scrubCardNumbers('Agent/4111 1111 1111 1111 (X11; 2026)')).toBe('Agent/#### #### #### #### (X11; 2026)');
    expect(scrubCardNumbers(`UA ${fullWidth('4111111111111111')}`)).toBe(`UA ${'#'.repeat(16)}`);
    expect(scrubCardNumbers('a\u200b4111\u200b1111\u200b1111\u200b1111 b')).toBe(
      'a\u200b####\u200b####\u200b####\u200b#### b',
    );
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expect(scrubCardNumbers(ua)).toBe(ua);
  });

  it('stores a header scrubbed, then cut to whole characters', () => {
    expect(headerToStore(undefined, 300)).toBe('');
    expect(headerToStore(`${'x'.repeat(290)} 4111 1111 1111 1111`, 300)).toBe(`${'x'.repeat(290)} #### ####`);
    expect(headerToStore(`${'x'.repeat(299)}😀`, 300)).toBe(`${'x'.repeat(299)}😀`);
    expect(headerToStore(`${'x'.repeat(300)}😀`, 300)).toBe('x'.repeat(300));
  });
});

describe('what a profile text holds', () => {
  // A fixed seed: each kind of text a person writes without a letter between its numbers.
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (a: number, b: number) => a + Math.floor(random() * (b - a + 1));
  const pick = <T>(xs: T[]) => xs[int(0, xs.length - 1)];
  const digits = (n: number) => Array.from({ length: n }, () => int(0, 9)).join('');
  const two = (n: number) => String(n).padStart(2, '0');
  const kinds: Record<string, () => string> = {
    'phone numbers': () =>
      pick([
        () =>
          `+${pick(['44', '49', '33', '34', '39', '1', '62', '55', '7', '380'])} ${digits(3)} ${digits(3)} ${digits(4)}`,
        () => `+${pick(['44', '49', '62', '55', '34'])}${digits(int(9, 12))}`,
        () => `0${digits(int(2, 4))} ${digits(int(6, 8))}`,
        () => `(${int(200, 999)}) ${digits(3)}-${digits(4)}`,
        () => `0${int(6, 7)} ${digits(2)} ${digits(2)} ${digits(2)} ${digits(2)}`,
      ])(),
    prices: () =>
      Array.from({ length: int(3, 7) }, () =>
        pick([80, 100, 150, 200, 250, 300, 400, 500, 800, 1000, 1500, 2500, 4000]),
      ).join(pick(['/', '-', ' / ', ', ', ' ', '€ / ', '\n'])),
    times: () =>
      Array.from(
        { length: int(1, 4) },
        () => `${two(int(0, 23))}:${pick(['00', '30'])}-${two(int(0, 23))}:${pick(['00', '30'])}`,
      ).join(pick([', ', ' / ', ' '])),
    dates: () =>
      Array.from({ length: int(1, 3) }, () => {
        const [y, m, d] = [int(2024, 2028), int(1, 12), int(1, 28)];
        return pick([`${two(d)}.${two(m)}.${y}`, `${y}-${two(m)}-${two(d)}`, `${two(d)}/${two(m)}/${y}`]);
      }).join(pick([' - ', ', ', ' / '])),
    years: () => Array.from({ length: int(2, 5) }, () => String(int(1990, 2030))).join(pick(['-', ', ', ' / ', ' '])),
  };

  it.each(Object.keys(kinds))('has no card number in 5,000 texts of %s', (kind) => {
    const refused = Array.from({ length: 5000 }, kinds[kind]).filter(hasCardNumber);
    expect(refused).toEqual([]);
  });
});
