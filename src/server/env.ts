// Environment validated once at boot; everything else reads `env`, never process.env.
import path from 'node:path';
import { z } from 'zod';

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Directory <no-reply@localhost>'),
  PUBLIC_URL: z.string().optional(),
  SESSION_SECRET: z.string().min(16).optional(),
  FALLBACK_LANDING_URL: z.string().optional(),
  SITE_CURRENCY: z.string().length(3).default('EUR'),
  SEED_PROFILES: z.coerce.number().int().min(0).default(600),
  // Behind a load balancer: its address(es) or hop count, so request.ip (rate limits) is the client's.
  // Unset, X-Forwarded-For is ignored: a client could otherwise pick its own address.
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
