// Environment validated once at boot; everything else reads `env`, never process.env.
import net from 'node:net';
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
    /**
     * Fictional demo advertisers written on the first start of an empty database. Unset: 600 outside
     * production, none in production (a real site never shows demo data unless its operator asks for it).
     */
    SEED_PROFILES: z.coerce.number().int().min(0).optional(),
    /** GeoNames' alternateNamesV2.txt (or an extract in its format): city names in de and es (0604). */
    GEONAMES_ALTERNATE_NAMES: z.string().min(1).optional(),
    /** New accounts one address may register per hour (a shared office or carrier NAT may need more). */
    REGISTER_LIMIT_PER_ADDRESS: z.coerce.number().int().positive().default(10),
    /**
     * Multiplies every per-route request cap (payments, uploads, reports, the sandbox tokenizer...): load
     * tests and benchmarks, where many clients share one address or one account. Sign-in, PIN and
     * registration limits are not route caps and keep their values.
     */
    RATE_LIMIT_SCALE: z.coerce.number().int().min(1).max(1_000_000).default(1),
    // Behind a load balancer: its address(es) or hop count, so request.ip (rate limits) is the client's.
    // Unset, X-Forwarded-For is ignored: a client could otherwise pick its own address.
    // The proxies whose X-Forwarded-For is believed: true, false, a hop count, or addresses and CIDRs (and
    // proxy-addr's names loopback, linklocal, uniquelocal) separated by commas. Anything else is refused at
    // start with this message, not a stack trace from the first request.
    TRUST_PROXY: z
      .string()
      .optional()
      .refine((v) => v === undefined || trustProxyReads(v), {
        message: 'true, false, a hop count, or addresses and CIDRs separated by commas (e.g. 10.0.0.0/8,127.0.0.1)',
      }),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Money (docs/decisions/0403): default prices in minor units of SITE_CURRENCY, written to the products
    // table when a product is missing there; admins change them afterwards (the table wins).
    PRICE_STANDARD_TOPUP: z.coerce.number().int().positive().default(500),
    PRICE_ADDITIONAL_LOCATION: z.coerce.number().int().positive().default(1500),
    /** The smallest card or crypto load. */
    MIN_TOPUP: z.coerce.number().int().positive().default(1000),
    // Load methods (docs/decisions/0400): the built-in sandbox (the default outside production), Verotel
    // FlexPay for cards (0420), BTCPay Server for crypto; 'none' switches a method off.
    CARD_PROVIDER: z.enum(['sandbox', 'verotel', 'none']).optional(),
    /** Verotel FlexPay (decision 0420): the brand's host, the website's shop ID and its signature key. */
    VEROTEL_URL: z.url().default('https://secure.verotel.com'),
    VEROTEL_SHOP_ID: z
      .string()
      .regex(/^\d{1,12}$/)
      .optional(),
    VEROTEL_SIGNATURE_KEY: z.string().min(1).optional(),
    /** The website is in test mode in Verotel's Control Center: say so on screen and to the admin. */
    VEROTEL_TEST_MODE: z.enum(['true', 'false']).default('false'),
    /** Comma-separated addresses postbacks may come from (Verotel support gives them); unset: any. */
    VEROTEL_POSTBACK_IPS: z.string().optional(),
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
    // The seller on every receipt (decision 0422): name, postal address (lines split by "|" or a new
    // line), VAT or company number and a contact address; an unset one is left off the receipt, and
    // without a name the receipt names the site (common:siteName).
    BUSINESS_NAME: z.string().min(1).optional(),
    BUSINESS_ADDRESS: z.string().optional(),
    BUSINESS_VAT_ID: z.string().optional(),
    BUSINESS_EMAIL: z.string().optional(),
    /** An auto-topup slot missed by less than this runs late; an older one is recorded as missed. */
    AUTO_TOPUP_GRACE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(15),
    // Media in S3-compatible storage (docs/decisions/1000): set S3_BUCKET (public pictures and videos)
    // and S3_PRIVATE_BUCKET (photo IDs, videos waiting for an admin; never named by a URL). Unset, media
    // stay in DATA_DIR/media, which only one instance can use.
    S3_BUCKET: z.string().min(3).optional(),
    S3_PRIVATE_BUCKET: z.string().min(3).optional(),
    /** Anything but AWS: MinIO, Garage, R2... (https://minio.example:9000). */
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** Unset, the SDK's own chain (instance role, AWS_* variables, ~/.aws) supplies the credentials. */
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** bucket in the path (endpoint/bucket/key) instead of the host name: MinIO and most self-hosted servers. */
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    /** Where browsers load public media (a CDN or the public bucket's own address); unset, the app serves /media/. */
    S3_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** The bearer token GET /metrics asks for (decision 1019); unset, there is no metrics endpoint. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** Tests only (NODE_ENV=test): a crash injected at a named point of the money code. */
    MONEY_FAULT_POINT: z.enum(['after_provider_charge', 'after_webhook_verified']).optional(),
    /** Connections each instance keeps to PostgreSQL (instances x pool size must stay under max_connections). */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
    /**
     * `off` behind a PgBouncer transaction pool older than 1.21 (or without max_prepared_statements): the
     * directory's page statements are then sent unnamed, planned every time (docs/decisions/0740).
     */
    DATABASE_PREPARED_STATEMENTS: z
      .enum(['on', 'off'])
      .default('on')
      .transform((v) => v === 'on'),
    /**
     * Seconds a worker holds a claimed job; it renews the lease every third of it while the job runs, so a
     * job of a dead instance is taken over after at most this long (docs/decisions/0005).
     */
    JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
    /**
     * Seconds between SIGTERM and the listener's close, while readiness answers 503 and requests are still
     * served: a load balancer learns of the drain from its health check, not from refused connections.
     * Unset: 5 in production, 0 otherwise (docs/decisions/1011). With SHUTDOWN_TIMEOUT it must fit the
     * supervisor's stop grace (TimeoutStopSec, stop_grace_period).
     */
    SHUTDOWN_DELAY: z.coerce.number().min(0).max(3600).optional(),
    /** Seconds SIGTERM waits, once the listener is closed, for requests in flight before it closes what is left and exits. */
    SHUTDOWN_TIMEOUT: z.coerce.number().min(0).max(3600).default(20),
  })
  .superRefine((env, ctx) => {
    // Each DATA_DIR would make its own secret: a link mailed by one instance would be invalid on another
    // and the limit keys would differ (issue 24, item 2). The embedded default keeps DATA_DIR/secret.key.
    if (env.DATABASE_URL && !env.SESSION_SECRET)
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message:
          'required with DATABASE_URL: every instance must sign with the same secret (make one with `openssl rand -hex 32`)',
      });
    if (env.NODE_ENV === 'production' && !env.PUBLIC_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'required in production (e.g. https://example.com)',
      });
    checkS3(env, ctx);
    // A test's crash switch has no business in a real installation's environment file.
    if (env.MONEY_FAULT_POINT && env.NODE_ENV !== 'test')
      ctx.addIssue({ code: 'custom', path: ['MONEY_FAULT_POINT'], message: 'only for the tests (NODE_ENV=test)' });
    if (env.CARD_PROVIDER === 'verotel')
      for (const key of ['VEROTEL_SHOP_ID', 'VEROTEL_SIGNATURE_KEY'] as const)
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when CARD_PROVIDER=verotel' });
    if (env.CRYPTO_PROVIDER !== 'btcpay') return;
    for (const key of ['BTCPAY_URL', 'BTCPAY_STORE_ID', 'BTCPAY_API_KEY', 'BTCPAY_WEBHOOK_SECRET'] as const) {
      if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when CRYPTO_PROVIDER=btcpay' });
    }
  });

/** TRUST_PROXY's accepted forms (see its field). */
export function trustProxyReads(value: string): boolean {
  const v = value.trim();
  if (v === '' || v === 'true' || v === 'false' || /^\d{1,3}$/.test(v)) return true;
  return v.split(',').every((part) => {
    const item = part.trim();
    if (['loopback', 'linklocal', 'uniquelocal'].includes(item)) return true;
    const [address, bits, extra] = item.split('/');
    if (extra !== undefined || !net.isIP(address)) return false;
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (net.isIPv4(address) ? 32 : 128));
  });
}

type ParsedEnv = z.infer<typeof EnvSchema>;

function checkS3(env: Omit<ParsedEnv, 'dataDir'>, ctx: z.RefinementCtx) {
  const issue = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
  if (!env.S3_BUCKET) {
    // A typo in S3_BUCKET must not silently put every upload on one instance's disk.
    for (const key of ['S3_PRIVATE_BUCKET', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_PUBLIC_URL'] as const)
      if (env[key]) issue('S3_BUCKET', `required when ${key} is set`);
    return;
  }
  if (!env.S3_PRIVATE_BUCKET)
    issue('S3_PRIVATE_BUCKET', 'required with S3_BUCKET (photo IDs never go in the public one)');
  else if (env.S3_PRIVATE_BUCKET === env.S3_BUCKET) issue('S3_PRIVATE_BUCKET', 'must differ from S3_BUCKET');
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY)
    issue(env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID', 'set both or neither');
}

export type Env = Omit<z.infer<typeof EnvSchema>, 'SHUTDOWN_DELAY' | 'SEED_PROFILES'> & {
  SHUTDOWN_DELAY: number;
  SEED_PROFILES: number;
  dataDir: string;
};

/** SEED_PROFILES when it is not set: the demo outside production, nothing in production. */
export const defaultSeedProfiles = (nodeEnv: string) => (nodeEnv === 'production' ? 0 : 600);

/** SHUTDOWN_DELAY when it is not set: a load balancer checks readiness every few seconds in production. */
export const defaultShutdownDelay = (nodeEnv: string) => (nodeEnv === 'production' ? 5 : 0);

/** Every variable the server reads (the deployment files are checked against it). */
export const ENV_NAMES: readonly string[] = Object.keys(EnvSchema.shape);

/** The environment is not one the server can start with; its message is for the operator, as it is. */
export class InvalidEnvError extends Error {
  override name = 'InvalidEnvError';
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable is an unset one (`SESSION_SECRET=` in a unit file or compose); the messages are for
  // the operator, in English (the API's message keys are for people on the site).
  const given = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = EnvSchema.safeParse(given, { error: z.locales.en().localeError });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new InvalidEnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return {
    ...parsed.data,
    SHUTDOWN_DELAY: parsed.data.SHUTDOWN_DELAY ?? defaultShutdownDelay(parsed.data.NODE_ENV),
    SEED_PROFILES: parsed.data.SEED_PROFILES ?? defaultSeedProfiles(parsed.data.NODE_ENV),
    dataDir: path.resolve(parsed.data.DATA_DIR),
  };
}
