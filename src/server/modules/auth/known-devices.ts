// Where an account has signed in before (issue 8 item 7, docs/decisions/0806). A right password from a
// known device or a known address is not held back by the account's lock, which anyone can fill with five
// wrong guesses: those attempts are counted under a limit of their own (the device's, or the account at
// that address). Plain inputs and outputs only: the routes read and set the cookie.
//
// - Known device: the `kd` cookie (HttpOnly, path /api/auth, 180 days) holds up to 5 entries
//   `<account id>.<nonce>.<expiry s>.<mac>`, one per account that signed in on this browser, each signed
//   with HMAC-SHA256 under the server secret. Nothing is stored on the server.
// - Known address: an HMAC of the client address, kept for 30 days per account in the limiter's store
//   (in process or Redis) as a "seen" key, so no address is stored in clear and no table is needed.
import crypto from 'node:crypto';
import type { AppContext } from '../../context';

export const KNOWN_DEVICE_COOKIE = 'kd';
export const KNOWN_DEVICE_PATH = '/api/auth';
export const KNOWN_DEVICE_TTL_MS = 180 * 86_400_000;
export const KNOWN_ADDRESS_TTL_MS = 30 * 86_400_000;
/** Accounts remembered per browser (linked accounts share one); the oldest entry goes first. */
const MAX_ENTRIES = 5;

/** What the services need to know about the caller, without Fastify objects. */
export interface ClientInfo {
  address: string;
  /** Kept with a new session (the first 300 characters). */
  userAgent?: string;
  /** The `kd` cookie as the browser sent it. */
  knownDevices?: string;
}

export interface KnownDevice {
  accountId: number;
  /** Random per device and account: the key of the device's own attempt limit. */
  nonce: string;
  expiresAt: number;
}

const ENTRY = /^(\d{1,10})\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function mac(ctx: Pick<AppContext, 'secret'>, accountId: number, nonce: string, expiresSec: number): string {
  return crypto
    .createHmac('sha256', ctx.secret)
    .update(`known-device:${accountId}:${nonce}:${expiresSec}`)
    .digest('base64url');
}

function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** The signed, unexpired entries of a `kd` cookie; anything else in it is ignored. */
export function readKnownDevices(ctx: Pick<AppContext, 'secret' | 'now'>, cookie: string | undefined): KnownDevice[] {
  if (!cookie || cookie.length > 1000) return [];
  const now = ctx.now().getTime();
  const out: KnownDevice[] = [];
  for (const part of cookie.split('~').slice(0, MAX_ENTRIES)) {
    const m = ENTRY.exec(part);
    if (!m) continue;
    const accountId = Number(m[1]);
    const expiresSec = Number(m[3]);
    if (expiresSec * 1000 <= now || !sameMac(m[4], mac(ctx, accountId, m[2], expiresSec))) continue;
    out.push({ accountId, nonce: m[2], expiresAt: expiresSec * 1000 });
  }
  return out;
}

export function knownDeviceFor(
  ctx: Pick<AppContext, 'secret' | 'now'>,
  cookie: string | undefined,
  accountId: number,
): KnownDevice | undefined {
  return readKnownDevices(ctx, cookie).find((d) => d.accountId === accountId);
}

/** The new `kd` value after a sign-in to accountId: its entry first and renewed, the others kept. */
export function rememberDevice(
  ctx: Pick<AppContext, 'secret' | 'now'>,
  cookie: string | undefined,
  accountId: number,
): string {
  const entries = readKnownDevices(ctx, cookie);
  const nonce = entries.find((d) => d.accountId === accountId)?.nonce ?? crypto.randomBytes(16).toString('base64url');
  const expiresSec = Math.floor((ctx.now().getTime() + KNOWN_DEVICE_TTL_MS) / 1000);
  const others = entries.filter((d) => d.accountId !== accountId).slice(0, MAX_ENTRIES - 1);
  return [
    `${accountId}.${nonce}.${expiresSec}.${mac(ctx, accountId, nonce, expiresSec)}`,
    ...others.map((d) => {
      const sec = Math.floor(d.expiresAt / 1000);
      return `${d.accountId}.${d.nonce}.${sec}.${mac(ctx, d.accountId, d.nonce, sec)}`;
    }),
  ].join('~');
}

/** The account at this address, as the limiter keys it: an HMAC, so the store holds no address. */
export function addressKey(ctx: Pick<AppContext, 'secret'>, accountId: number, address: string): string {
  const hash = crypto.createHmac('sha256', ctx.secret).update(`known-address:${address}`).digest('base64url');
  return `${accountId}:${hash.slice(0, 32)}`;
}

const seenKey = (ctx: Pick<AppContext, 'secret'>, accountId: number, address: string) =>
  `known-ip:${addressKey(ctx, accountId, address)}`;

export async function isKnownAddress(ctx: AppContext, accountId: number, address: string): Promise<boolean> {
  return (await ctx.limiter.peek(seenKey(ctx, accountId, address))).count > 0;
}

/** After a right password: this address is known for the account for the next 30 days. */
export async function rememberAddress(ctx: AppContext, accountId: number, address: string): Promise<void> {
  const key = seenKey(ctx, accountId, address);
  // Renewed at every sign-in: 30 days from the last one.
  await ctx.limiter.reset(key);
  await ctx.limiter.hit(key, KNOWN_ADDRESS_TTL_MS);
}
