// One-tap contact addresses (docs/decisions/0322).
import { describe, expect, it } from 'vitest';
import { contactButtons, contactHref, smsHref } from './contact';

describe('one-tap contact', () => {
  it('opens WhatsApp with her number, from the value or her phone', () => {
    expect(contactHref('whatsapp', '+44 7700 900123', null)).toBe('https://wa.me/447700900123');
    expect(contactHref('whatsapp', 'yes', '+44 20 7946 0000')).toBe('https://wa.me/442079460000');
    expect(contactHref('whatsapp', 'https://wa.me/447700900123', null)).toBe('https://wa.me/447700900123');
    expect(contactHref('whatsapp', 'https://evil.example/wa', null)).toBeNull();
    expect(contactHref('whatsapp', 'yes', null)).toBeNull();
  });

  it('opens Telegram by handle or by number', () => {
    expect(contactHref('telegram', '@anna_london', '+44 1')).toBe('https://t.me/anna_london');
    expect(contactHref('telegram', '+44 7700 900123', null)).toBe('https://t.me/+447700900123');
    expect(contactHref('telegram', 'a b', '+44 7700 900123')).toBeNull();
  });

  it('opens Signal with her number', () => {
    expect(contactHref('signal', '+49 151 2345678', null)).toBe('https://signal.me/#p/+491512345678');
    expect(contactHref('signal', 'ask me', '+49 151 2345678')).toBe('https://signal.me/#p/+491512345678');
    expect(contactHref('signal', 'https://signal.me/#eu/abc', null)).toBe('https://signal.me/#eu/abc');
  });

  it('lists only the apps she gave, in a fixed order, and texts her number', () => {
    const buttons = contactButtons({ signal: '+4915123', viber: '+44 7700', whatsapp: '+44 7700 900123' }, null);
    expect(buttons.map((b) => b.app)).toEqual(['whatsapp', 'signal']);
    expect(contactButtons(undefined, '+44 20')).toEqual([]);
    expect(smsHref('+44 20 7946 0000')).toBe('sms:+442079460000');
  });
});
