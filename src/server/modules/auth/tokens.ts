// Secrets of links and PINs. The database keeps HMAC-SHA256(server secret, purpose:account:secret),
// never the secret: a leaked table (without the server secret) neither opens links nor lets PINs be
// guessed offline.
import crypto from 'node:crypto';
import { MAX_ID } from '#shared/api/fields.ts';
import { PIN_LENGTH } from '#shared/constants.ts';
import type { AppContext } from '../../context';

export type TokenPurpose = 'email_verify' | 'password_reset' | 'mobile_pin' | 'email_change';

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  email_verify: 48 * 3600_000,
  email_change: 24 * 3600_000,
  password_reset: 3600_000,
  mobile_pin: 10 * 60_000,
};

/** Wrong PINs a single PIN survives before it is burned (the account and address limits apply too). */
export const PIN_MAX_ATTEMPTS = 5;

/** 256 random bits, URL-safe. */
export const randomSecret = () => crypto.randomBytes(32).toString('base64url');

export const randomPin = () =>
  crypto
    .randomInt(0, 10 ** PIN_LENGTH)
    .toString()
    .padStart(PIN_LENGTH, '0');

export function tokenMac(ctx: Pick<AppContext, 'secret'>, purpose: TokenPurpose, accountId: number, secret: string) {
  return crypto.createHmac('sha256', ctx.secret).update(`${purpose}:${accountId}:${secret}`).digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ab.length === bb.length && ab.length > 0 && crypto.timingSafeEqual(ab, bb);
}

/** "<id>.<secret>" as it travels in /verify/{type}/{target} and /verify/pin/{hash}. */
export function splitRef(ref: string): { id: number; secret: string } | null {
  const m = /^(\d{1,10})\.([A-Za-z0-9_-]{20,100})$/.exec(ref);
  if (!m) return null;
  const id = Number(m[1]);
  return id > 0 && id <= MAX_ID ? { id, secret: m[2] } : null;
}
