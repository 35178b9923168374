// The /transactions screen's Receipt link (decision 0422) names the reader's language, and never one the
// server would refuse with 422.
import { describe, expect, it } from 'vitest';
import { receiptUrl } from './api';

describe('receiptUrl', () => {
  it("names the screen's language", () => {
    expect(receiptUrl(12, 'de')).toBe('/api/payment/receipt/12?lang=de');
    expect(receiptUrl(7, 'en')).toBe('/api/payment/receipt/7?lang=en');
  });
  it('leaves out a language the site does not have (the server then takes the host’s)', () => {
    expect(receiptUrl(12, 'fr')).toBe('/api/payment/receipt/12');
    expect(receiptUrl(12, 'cimode')).toBe('/api/payment/receipt/12');
  });
});
