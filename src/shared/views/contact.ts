// One-tap contact (issue 27, item 5; docs/decisions/0322): beside the call button, a text message and the
// messengers she gave (WhatsApp, Telegram, Signal) as buttons that open the app with her number. Each tap
// counts as a phone reveal in her statistics (once per visitor and day, decision 0808).
import { safeHttpUrl } from './format.ts';

export const CONTACT_APPS = ['whatsapp', 'telegram', 'signal'] as const;
export type ContactApp = (typeof CONTACT_APPS)[number];

/** The digits of a phone number in international form (7 to 15, E.164), or null. */
function internationalDigits(value: string): string | null {
  const digits = value.replace(/[^\d]/g, '');
  return digits.length >= 7 && digits.length <= 15 ? digits : null;
}

/** A value that is a phone number (digits, spaces, dashes, dots, brackets, a leading +). */
const looksLikeNumber = (value: string) => /^\+?[\d\s().-]+$/.test(value.trim());

/**
 * The app's address for her, from the messenger value she gave, or her phone number where that value is
 * not itself usable (WhatsApp and Signal reach a number): wa.me/<digits>, t.me/<handle> or t.me/+<digits>,
 * signal.me/#p/+<digits>. A value that is already an http(s) address of the app is kept. Null: no button.
 */
export function contactHref(app: ContactApp, value: string, phone: string | null): string | null {
  const v = value.trim();
  const url = safeHttpUrl(v);
  const hosts: Record<ContactApp, RegExp> = {
    whatsapp: /^https:\/\/(wa\.me|api\.whatsapp\.com)\//,
    telegram: /^https:\/\/t\.me\//,
    signal: /^https:\/\/signal\.(me|group)\//,
  };
  if (url) return hosts[app].test(url) ? url : null;
  const number = (looksLikeNumber(v) ? internationalDigits(v) : null) ?? (phone ? internationalDigits(phone) : null);
  switch (app) {
    case 'whatsapp':
      return number ? `https://wa.me/${number}` : null;
    case 'telegram': {
      const handle = v.replace(/^@/, '');
      if (!looksLikeNumber(v) && /^[A-Za-z][A-Za-z0-9_]{4,31}$/.test(handle)) return `https://t.me/${handle}`;
      return looksLikeNumber(v) && number ? `https://t.me/+${number}` : null;
    }
    case 'signal':
      return number ? `https://signal.me/#p/+${number}` : null;
  }
}

/** The messenger buttons of a profile, in a fixed order: those she gave that have an address. */
export function contactButtons(
  messenger: Record<string, string> | undefined,
  phone: string | null,
): Array<{ app: ContactApp; href: string }> {
  const out: Array<{ app: ContactApp; href: string }> = [];
  for (const app of CONTACT_APPS) {
    const value = messenger?.[app];
    if (typeof value !== 'string' || !value.trim()) continue;
    const href = contactHref(app, value, phone);
    if (href) out.push({ app, href });
  }
  return out;
}

/** sms: with her number (the text button beside the call button). */
export const smsHref = (phone: string) => `sms:${phone.replace(/[^\d+]/g, '')}`;
