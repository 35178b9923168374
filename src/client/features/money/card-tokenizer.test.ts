import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardRefused, formatCardNumber, formatExpiry, parseExpiry, tokenizeCard } from './card-tokenizer';

describe('card fields', () => {
  it('group the number in fours and keep digits only', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4000-0000 0000 3220x')).toBe('4000 0000 0000 3220');
  });
  it('read the expiry as month and four-digit year', () => {
    expect(formatExpiry('1228')).toBe('12/28');
    expect(parseExpiry('12/28')).toEqual({ month: 12, year: 2028 });
    expect(parseExpiry('3/2031')).toEqual({ month: 3, year: 2031 });
    expect(parseExpiry('13/28')).toBeNull();
    expect(parseExpiry('1228')).toBeNull();
  });
});

describe('tokenizeCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts the card to the tokenizer only, without our cookies, and returns the token', async () => {
    const fetch = vi.fn(async () =>
      Response.json({ id: 'tok_1', card: { last4: '4242', brand: 'visa', exp_month: 12, exp_year: 2030 } }),
    );
    vi.stubGlobal('fetch', fetch);
    const card = await tokenizeCard('/sandbox-acquirer/v1/tokens', {
      number: '4242 4242 4242 4242',
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
    });
    expect(card).toEqual({ token: 'tok_1', last4: '4242', brand: 'visa' });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/sandbox-acquirer/v1/tokens');
    expect(init.credentials).toBe('omit');
    expect(JSON.parse(String(init.body))).toMatchObject({ number: '4242424242424242' });
  });

  it("turns the tokenizer's refusals into codes", async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ error: { code: 'invalid_cvc', field: 'cvc' } }, { status: 402 }),
    );
    await expect(
      tokenizeCard('/t', { number: '4242424242424242', exp_month: 1, exp_year: 2030, cvc: 'x' }),
    ).rejects.toEqual(new CardRefused('invalid_cvc'));
    vi.stubGlobal('fetch', async () => new Response('busy', { status: 429 }));
    await expect(
      tokenizeCard('/t', { number: '4242424242424242', exp_month: 1, exp_year: 2030, cvc: '123' }),
    ).rejects.toEqual(new CardRefused('rate_limited'));
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(
      tokenizeCard('/t', { number: '4242424242424242', exp_month: 1, exp_year: 2030, cvc: '123' }),
    ).rejects.toEqual(new CardRefused('unreachable'));
  });
});
