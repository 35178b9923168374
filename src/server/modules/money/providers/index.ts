// Which provider serves each load method, from the configuration (docs/decisions/0400).
import type { AppContext } from '../../../context';
import { btcpay } from './btcpay';
import type { PaymentProvider } from './provider';
import { sandboxCard, sandboxCrypto } from './sandbox';
import { verotel } from './verotel';

export interface Providers {
  card: PaymentProvider | null;
  crypto: PaymentProvider | null;
  byName(method: 'card' | 'crypto', name: string): PaymentProvider | null;
}

const cache = new WeakMap<AppContext, Providers>();

/** The sandbox is the default outside production; in production a provider must be chosen on purpose. */
export function cardProviderName(ctx: AppContext) {
  return ctx.env.CARD_PROVIDER ?? (ctx.env.NODE_ENV === 'production' ? 'none' : 'sandbox');
}
export function cryptoProviderName(ctx: AppContext) {
  return ctx.env.CRYPTO_PROVIDER ?? (ctx.env.NODE_ENV === 'production' ? 'none' : 'sandbox');
}

export function providers(ctx: AppContext): Providers {
  let found = cache.get(ctx);
  if (found) return found;
  const cardName = cardProviderName(ctx);
  const card = cardName === 'sandbox' ? sandboxCard(ctx) : cardName === 'verotel' ? verotel(ctx) : null;
  const cryptoName = cryptoProviderName(ctx);
  const crypto = cryptoName === 'sandbox' ? sandboxCrypto(ctx) : cryptoName === 'btcpay' ? btcpay(ctx.env) : null;
  found = {
    card,
    crypto,
    byName: (method, name) => {
      const p = method === 'card' ? card : crypto;
      return p && p.name === name ? p : null;
    },
  };
  cache.set(ctx, found);
  return found;
}

/** Is the sandbox provider in use (its routes are served only then)? */
export const sandboxInUse = (ctx: AppContext) =>
  cardProviderName(ctx) === 'sandbox' || cryptoProviderName(ctx) === 'sandbox';
