// A payment's idempotency key (decision 0811): a UUID, also where crypto.randomUUID is missing (plain http),
// since the card guard takes a UUID for an identifier and bare hex digits sometimes for a card number.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newIdempotencyKey } from './api';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.unstubAllGlobals());

describe('newIdempotencyKey', () => {
  it('is a version 4 UUID without randomUUID too (the shape the card guard leaves alone)', () => {
    vi.stubGlobal('crypto', { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
    const keys = Array.from({ length: 5000 }, () => newIdempotencyKey());
    for (const key of keys) expect(key).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
