// What every service receives: the database, stores, senders and configuration. Built once per app.
import type { Env } from './env';
import type { Db } from './db/client';
import type { Mailer } from './lib/mailer';
import type { MediaStore } from './lib/media-store';
import type { RateLimiter } from './lib/rate-limiter';
import type { SmsSender } from './lib/sms';

export interface AppContext {
  env: Env;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  media: MediaStore;
  mailer: Mailer;
  sms: SmsSender;
  /** Brute-force counters: in process, or Redis when REDIS_URL is set. */
  limiter: RateLimiter;
  /** Server secret for HMACs (PINs, links, CSRF). */
  secret: string;
  buildId: string;
  now: () => Date;
  /** Set by a shutdown (SIGTERM): readiness answers 503 from then on. */
  lifecycle?: { draining: boolean };
}
