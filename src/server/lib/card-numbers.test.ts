// What counts as a card number in text (issue 21 item 3): brand prefix and length, Luhn, anywhere in a
// text, in groups split by spaces or dashes; a phone number written from "+" is none.
import { describe, expect, it } from 'vitest';
import { hasCardNumber, isCardNumber, maskCardNumbers, urlForLog } from './card-numbers';

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
    ['2223003122003222'],
    ['card4242424242424242x'],
  ])('finds one in %j', (text) => {
    expect(hasCardNumber(text)).toBe(true);
    expect(maskCardNumbers(text)).toContain('[card]');
    expect(maskCardNumbers(text)).not.toMatch(/\d{4}[ -]?\d{4}[ -]?\d{4}/);
  });

  it.each([
    ['+49 4242 4242 4242 4242'],
    ['call +4242424242424242'],
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

  it('knows the brands and their lengths', () => {
    expect(isCardNumber('378282246310005')).toBe(true);
    expect(isCardNumber('4242424242424242')).toBe(true);
    // A Luhn-valid 15-digit number starting with 4 is not a length Visa uses.
    expect(isCardNumber('424242424242426')).toBe(false);
  });

  it('masks decoded URLs for the log', () => {
    expect(urlForLog('/api/directory/search?q=4242%204242%204242%204242&page=1')).toBe(
      '/api/directory/search?q=[card]&page=1',
    );
    expect(urlForLog('/api/x?q=%zz4111111111111111')).toBe('/api/x?q=%zz[card]');
  });
});
