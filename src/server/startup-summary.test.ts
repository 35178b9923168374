import { describe, expect, it } from 'vitest';
import { loadEnv } from './env';
import { liveSummary, whatIsLive } from './startup-summary';

const PROD = { NODE_ENV: 'production', PUBLIC_URL: 'https://example.com', SESSION_SECRET: 'a'.repeat(64) };

describe('the start-up summary (issue 45 item 2)', () => {
  it('warns in production for every stand-in: sandbox payments, the placeholder bank account, mail in the outbox, demo data', () => {
    const env = loadEnv({ ...PROD, CARD_PROVIDER: 'sandbox', CRYPTO_PROVIDER: 'sandbox' });
    const { info, warnings } = liveSummary(whatIsLive({ env, dbKind: 'pglite' }, 600), true);
    expect(info).toHaveLength(9);
    expect(warnings.map((w) => w.split(' ')[0])).toEqual(['mail', 'sms', 'card', 'crypto', 'bank', 'demo']);
    expect(warnings.join('\n')).toMatch(/card is a stand-in in production: the built-in sandbox card page/);
    expect(warnings.join('\n')).toMatch(/bank transfer is a stand-in in production: a placeholder account/);
    // Outside production the same parts are said, without warnings.
    expect(liveSummary(whatIsLive({ env, dbKind: 'pglite' }), false).warnings).toEqual([]);
  });

  it('says what is real, names hosts but never a password, and warns only for what is still a stand-in', () => {
    const env = loadEnv({
      ...PROD,
      DATABASE_URL: 'postgres://directory:s3cret-pw@db.internal:5432/directory',
      REDIS_URL: 'redis://:redis-pw@cache.internal:6379',
      SMTP_URL: 'smtp://mailer:smtp-pw@smtp.example.com:587',
      S3_BUCKET: 'media',
      S3_PRIVATE_BUCKET: 'private',
      S3_ENDPOINT: 'http://minio:9000',
      CARD_PROVIDER: 'verotel',
      VEROTEL_SHOP_ID: '1',
      VEROTEL_SIGNATURE_KEY: 'k',
      CRYPTO_PROVIDER: 'none',
      BANK_IBAN: 'DE89370400440532013000',
      BANK_ACCOUNT_HOLDER: 'Example Ltd',
    });
    const { info, warnings } = liveSummary(whatIsLive({ env, dbKind: 'postgres' }), true);
    const text = info.join('\n');
    expect(text).toContain('database: real, PostgreSQL at postgres://db.internal:5432/directory');
    expect(text).toContain('card: real, Verotel FlexPay');
    expect(text).toContain('crypto: off');
    expect(text).not.toMatch(/s3cret-pw|redis-pw|smtp-pw|DE89/);
    // No SMS gateway is built in: that one stays a stand-in.
    expect(warnings).toEqual([expect.stringMatching(/^sms is a stand-in in production/)]);
  });
});
