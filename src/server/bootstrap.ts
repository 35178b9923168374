// Opens what the app needs for an environment: database (PGlite or PostgreSQL), media store, secret.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from './context';
import { openDatabase, type Database } from './db/client';
import type { Env } from './env';
import { createMailer } from './lib/mailer';
import { LocalMediaStore, type MediaStore } from './lib/media-store';
import { createRateLimiter, RedisRateLimiter } from './lib/rate-limiter';
import { redisReady, type RedisLog } from './lib/redis';
import { S3MediaStore } from './lib/s3-media-store';
import { createSmsSender } from './lib/sms';
import { CLIENT_DIR } from './app';

export interface Runtime {
  ctx: AppContext;
  database: Database;
  close(): Promise<void>;
}

function loadSecret(env: Env): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  // Embedded default: one random secret per data directory, kept across restarts.
  const file = path.join(env.dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = crypto.randomBytes(32).toString('hex');
    fs.mkdirSync(env.dataDir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/** S3-compatible storage when S3_BUCKET is set, else DATA_DIR/media (docs/decisions/1000). */
export function openMediaStore(env: Env): MediaStore {
  if (!env.S3_BUCKET) return new LocalMediaStore(path.join(env.dataDir, 'media'));
  return new S3MediaStore({
    bucket: env.S3_BUCKET,
    privateBucket: env.S3_PRIVATE_BUCKET!,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    publicUrl: env.S3_PUBLIC_URL,
  });
}

export function readBuildId(): string {
  try {
    return fs.readFileSync(path.join(CLIENT_DIR, 'build-id.txt'), 'utf8').trim();
  } catch {
    return 'dev';
  }
}

export async function openRuntime(
  env: Env,
  overrides: { inMemory?: boolean; pgliteImage?: Blob; redisLog?: RedisLog } = {},
): Promise<Runtime> {
  fs.mkdirSync(env.dataDir, { recursive: true });
  const database = await openDatabase({
    url: env.DATABASE_URL,
    pgliteDir: overrides.inMemory ? undefined : path.join(env.dataDir, 'db'),
    pgliteImage: overrides.pgliteImage,
    poolSize: env.DATABASE_POOL_SIZE,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
  });
  const limiter = createRateLimiter(env, overrides.redisLog);
  // Commands fail at once while disconnected (no offline queue): wait for the first connection, but
  // not longer than its timeout, so an unreachable Redis delays a start by 2 s, not forever.
  if (limiter instanceof RedisRateLimiter) await redisReady(limiter.redis);
  const ctx: AppContext = {
    env,
    db: database.db,
    dbKind: database.kind,
    media: openMediaStore(env),
    mailer: createMailer(env),
    sms: createSmsSender(env),
    limiter,
    secret: loadSecret(env),
    buildId: readBuildId(),
    now: () => new Date(),
    lifecycle: { draining: false },
  };
  return {
    ctx,
    database,
    async close() {
      await Promise.allSettled([ctx.mailer.close(), ctx.limiter.close()]);
      ctx.media.close?.();
      await database.close();
    },
  };
}
