// Environment validated once at boot; everything else reads `env`, never process.env.
import path from 'node:path';
import { z } from 'zod';

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().optional(),
    REDIS_URL: z.string().optional(),
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default('Directory <no-reply@localhost>'),
    // The site's address: the base of every absolute link (emails, canonical, og:, sitemap). Required in
    // production, where a link must never be built on a Host header the client chose (issue 8, item 10).
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Without PUBLIC_URL (development): host names the site answers to besides localhost, comma-separated. */
    SITE_HOSTS: z.string().optional(),
    /** Tumblr's share statistics (JSON), asked by the server for the share bar's counter (decision 0805). */
    TUMBLR_STATS_URL: z.url().default('https://api.tumblr.com/v2/share/stats'),
    SESSION_SECRET: z.string().min(16).optional(),
    FALLBACK_LANDING_URL: z.string().optional(),
    SITE_CURRENCY: z.string().length(3).default('EUR'),
    SEED_PROFILES: z.coerce.number().int().min(0).default(600),
    /** GeoNames' alternateNamesV2.txt (or an extract in its format): city names in de and es (0604). */
    GEONAMES_ALTERNATE_NAMES: z.string().min(1).optional(),
    /** New accounts one address may register per hour (a shared office or carrier NAT may need more). */
    REGISTER_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().default(10),
    // Behind a load balancer: its address(es) or hop count, so request.ip (rate limits) is the client's.
    // Unset, X-Forwarded-For is ignored: a client could otherwise pick its own address.
    TRUST_PROXY: z.string().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Money (docs/decisions/0403): default prices in minor units of SITE_CURRENCY, written to the products
    // table when a product is missing there; admins change them afterwards (the table wins).
    PRICE_STANDARD_TOPUP: z.coerce.number().int().positive().default(500),
    PRICE_ADDITIONAL_LOCATION: z.coerce.number().int().positive().default(1500),
    /** The smallest card or crypto load. */
    MIN_TOPUP: z.coerce.number().int().positive().default(1000),
    // Load methods (docs/decisions/0400): the built-in sandbox (the default outside production), or BTCPay
    // Server for crypto; 'none' switches a method off.
    CARD_PROVIDER: z.enum(['sandbox', 'none']).optional(),
    CRYPTO_PROVIDER: z.enum(['sandbox', 'btcpay', 'none']).optional(),
    BTCPAY_URL: z.url().optional(),
    BTCPAY_STORE_ID: z.string().min(1).optional(),
    BTCPAY_API_KEY: z.string().min(1).optional(),
    BTCPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
    // Bank transfer: the site's account shown on /edit/load/{id}. Unset, a sandbox placeholder is shown.
    BANK_ACCOUNT_HOLDER: z.string().optional(),
    BANK_IBAN: z.string().optional(),
    BANK_BIC: z.string().optional(),
    BANK_NAME: z.string().optional(),
    /** An auto-topup slot missed by less than this runs late; an older one is recorded as missed. */
    AUTO_TOPUP_GRACE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(15),
    /** Tests only (NODE_ENV=test): a crash injected at a named point of the money code. */
    MONEY_FAULT_POINT: z.enum(['after_provider_charge', 'after_webhook_verified']).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.PUBLIC_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'required in production (e.g. https://example.com)',
      });
    if (env.CRYPTO_PROVIDER !== 'btcpay') return;
    for (const key of ['BTCPAY_URL', 'BTCPAY_STORE_ID', 'BTCPAY_API_KEY', 'BTCPAY_WEBHOOK_SECRET'] as const) {
      if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when CRYPTO_PROVIDER=btcpay' });
    }
  });

export type Env = z.infer<typeof EnvSchema> & { dataDir: string };

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}
