import { describe, expect, it } from 'vitest';
import { compactCount, popupFeatures, shareUrl } from './share';

describe('compactCount (spec: k, m, g at powers of 1000)', () => {
  it('keeps small numbers and shortens large ones', () => {
    expect(compactCount(0)).toBe('0');
    expect(compactCount(999)).toBe('999');
    expect(compactCount(1000)).toBe('1k');
    expect(compactCount(1234)).toBe('1.2k');
    expect(compactCount(15_000)).toBe('15k');
    expect(compactCount(123_456)).toBe('123k');
    expect(compactCount(999_950)).toBe('1m');
    expect(compactCount(2_500_000)).toBe('2.5m');
    expect(compactCount(1_000_000_000)).toBe('1g');
    expect(compactCount(7_200_000_000_000)).toBe('7200g');
  });
});

describe('share popups', () => {
  it('are 500 x 500 and centred on the window', () => {
    const features = popupFeatures(undefined, { screenX: 100, screenY: 50, outerWidth: 1300, outerHeight: 900 });
    expect(features).toBe('popup=yes,width=500,height=500,left=500,top=250');
  });

  it('share the URL through each network', () => {
    const url = 'https://example.test/profile/5';
    expect(shareUrl('x', url, 'Anna & co')).toBe(
      'https://x.com/intent/tweet?url=https%3A%2F%2Fexample.test%2Fprofile%2F5&text=Anna%20%26%20co',
    );
    expect(shareUrl('telegram', url, 'A')).toContain(
      'https://t.me/share/url?url=https%3A%2F%2Fexample.test%2Fprofile%2F5',
    );
    expect(shareUrl('whatsapp', url, 'A')).toBe(
      'https://api.whatsapp.com/send?text=A%20https%3A%2F%2Fexample.test%2Fprofile%2F5',
    );
    expect(shareUrl('tumblr', url, 'A')).toContain('canonicalUrl=https%3A%2F%2Fexample.test%2Fprofile%2F5');
    expect(shareUrl('email', url, 'A')).toMatch(/^mailto:\?subject=A&body=/);
  });
});
