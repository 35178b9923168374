// What this instance runs on, said once at start (issue 45 item 2): the database, Redis, media storage,
// mail, text messages and each way to pay, each as real, a stand-in of this project (sandbox, outbox) or
// off; in production a warning for every stand-in, so an operator sees at the first start what a visitor
// would otherwise find out (a sandbox card page, a placeholder bank account, mail that never leaves).
import type { AppContext } from './context';
import { cardProviderName, cryptoProviderName } from './modules/money/providers';

export interface LivePart {
  part: 'database' | 'redis' | 'media' | 'mail' | 'sms' | 'card' | 'crypto' | 'bank transfer' | 'demo data';
  /** `real`: a service of the operator's; `stand-in`: this project's sandbox or outbox; `off`: not offered. */
  kind: 'real' | 'stand-in' | 'off' | 'embedded';
  detail: string;
}

/** The host (and path) of a URL, never its user or password. */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(unreadable address)';
  }
}

export function whatIsLive(ctx: Pick<AppContext, 'env' | 'dbKind'>, demoProfiles = 0): LivePart[] {
  const env = ctx.env;
  const card = cardProviderName(ctx as AppContext);
  const crypto = cryptoProviderName(ctx as AppContext);
  const parts: LivePart[] = [
    env.DATABASE_URL
      ? { part: 'database', kind: 'real', detail: `PostgreSQL at ${where(env.DATABASE_URL)}` }
      : { part: 'database', kind: 'embedded', detail: `PGlite in ${env.dataDir}/db (one instance only)` },
    env.REDIS_URL
      ? { part: 'redis', kind: 'real', detail: `Redis at ${where(env.REDIS_URL)}` }
      : { part: 'redis', kind: 'embedded', detail: 'none: limits and caches in this process (one instance only)' },
    env.S3_BUCKET
      ? {
          part: 'media',
          kind: 'real',
          detail: `S3 buckets ${env.S3_BUCKET} and ${env.S3_PRIVATE_BUCKET ?? '?'}${env.S3_ENDPOINT ? ` at ${where(env.S3_ENDPOINT)}` : ''}`,
        }
      : { part: 'media', kind: 'embedded', detail: `files in ${env.dataDir}/media (one instance only)` },
    env.SMTP_URL
      ? { part: 'mail', kind: 'real', detail: `SMTP at ${where(env.SMTP_URL)}` }
      : { part: 'mail', kind: 'stand-in', detail: `outbox in ${env.dataDir}/outbox: no mail leaves` },
    { part: 'sms', kind: 'stand-in', detail: `outbox in ${env.dataDir}/outbox: no text message leaves` },
    card === 'verotel'
      ? {
          part: 'card',
          kind: env.VEROTEL_TEST_MODE === 'true' ? 'stand-in' : 'real',
          detail: `Verotel FlexPay${env.VEROTEL_TEST_MODE === 'true' ? ' in test mode' : ''}`,
        }
      : card === 'sandbox'
        ? { part: 'card', kind: 'stand-in', detail: 'the built-in sandbox card page: no money is taken' }
        : { part: 'card', kind: 'off', detail: 'not offered (CARD_PROVIDER)' },
    crypto === 'btcpay'
      ? { part: 'crypto', kind: 'real', detail: `BTCPay Server at ${where(env.BTCPAY_URL ?? '')}` }
      : crypto === 'sandbox'
        ? { part: 'crypto', kind: 'stand-in', detail: 'the built-in sandbox invoice: no money is taken' }
        : { part: 'crypto', kind: 'off', detail: 'not offered (CRYPTO_PROVIDER)' },
    env.BANK_IBAN
      ? { part: 'bank transfer', kind: 'real', detail: `to ${env.BANK_ACCOUNT_HOLDER ?? 'the site'}'s account` }
      : { part: 'bank transfer', kind: 'stand-in', detail: 'a placeholder account (BANK_IBAN not set)' },
  ];
  if (demoProfiles > 0)
    parts.push({ part: 'demo data', kind: 'stand-in', detail: `${demoProfiles} fictional advertisers were seeded` });
  return parts;
}

/** The lines to log: one per part; in production a warning for each stand-in. */
export function liveSummary(parts: LivePart[], production: boolean): { info: string[]; warnings: string[] } {
  const info = parts.map((p) => `${p.part}: ${p.kind}, ${p.detail}`);
  const warnings = production
    ? parts.filter((p) => p.kind === 'stand-in').map((p) => `${p.part} is a stand-in in production: ${p.detail}`)
    : [];
  return { info, warnings };
}
