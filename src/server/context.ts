// What every service receives: the database, stores, senders and configuration. Built once per app.
import type { Env } from './env';
import type { Db } from './db/client';
import type { MediaStore } from './lib/media-store';

export interface AppContext {
  env: Env;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  media: MediaStore;
  /** Server secret for HMACs (PINs, links, CSRF). */
  secret: string;
  buildId: string;
  now: () => Date;
}
