// One-time links of the mails (email verification and change, password reset): a random secret in the
// link, only its HMAC stored; issuing a new one retires the open ones of the same purpose.
import { msg } from '#shared/api/messages.ts';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import * as repo from './auth.repo';
import { randomSecret, safeEqualHex, TOKEN_TTL_MS, tokenMac, type TokenPurpose } from './tokens';

export const INVALID_LINK = msg('auth.invalidLink');

export async function issueLink(
  ctx: AppContext,
  db: Db | Tx,
  accountId: number,
  purpose: TokenPurpose,
  target: string | null,
) {
  const now = ctx.now();
  const secret = randomSecret();
  await repo.retireTokens(db, accountId, [purpose], now);
  const row = await repo.insertToken(
    db,
    {
      accountId,
      purpose,
      tokenHash: tokenMac(ctx, purpose, accountId, secret),
      target,
      expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]),
    },
    now,
  );
  return { id: row.id, secret, ref: `${row.id}.${secret}` };
}

/** The token a link names, when its secret matches; usedAt and expiry are left to the caller. */
export async function tokenOfLink(ctx: AppContext, id: number, secret: string, purposes: TokenPurpose[]) {
  const token = await repo.findToken(ctx.db, id);
  if (!token || !purposes.includes(token.purpose)) return undefined;
  return safeEqualHex(token.tokenHash, tokenMac(ctx, token.purpose, token.accountId, secret)) ? token : undefined;
}

export const isLive = (token: repo.TokenRow, now: Date) => !token.usedAt && token.expiresAt > now;
