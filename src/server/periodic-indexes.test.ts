// The periodic tasks' reads go through their own indexes (docs/decisions/0757, migration 0030), not a walk
// of a whole table: at 500,000 profiles the hourly listed count read every profile (0.4 s) and the purge
// every account (90 ms), and the re-hash of pictures walked every picture each minute. Each task's own
// statement runs here as a big database would plan it (sequential scans ruled out), and the transaction's
// own index statistics (pg_stat_get_xact_numscans) say which index it read.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from './db/client';
import { duePurges } from './modules/account/account.repo';
import { countListed } from './modules/admin/admin.repo';
import { picturesOfOlderHash } from './modules/media/media.repo';
import { PICTURE_HASH_VERSION } from './modules/media/picture-hash';
import { createAdvertiser, seedGeo } from './test/factories';
import { createTestApp, type TestApp } from './test/helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  // Three advertisers, each with twenty pictures hashed with the current version, as after a re-hash.
  for (let i = 0; i < 3; i++) {
    const { account } = await createAdvertiser(t.ctx);
    await t.ctx.db.execute(sql`insert into media (user_id, type, storage_key, mime, phash, phash_version)
      select ${account.id}, 'gallery', 'u/' || ${account.id} || '/' || g, 'image/jpeg', g, ${PICTURE_HASH_VERSION}
      from generate_series(1, 20) g`);
  }
  await t.ctx.db.execute(sql`analyze accounts`);
  await t.ctx.db.execute(sql`analyze profiles`);
  await t.ctx.db.execute(sql`analyze media`);
});
afterAll(() => t.close());

/** The indexes `read` scanned, in one transaction with sequential scans ruled out. */
async function indexesRead(read: (db: Db) => Promise<unknown>): Promise<string[]> {
  // The backend's counts not yet reported include earlier transactions': the ones that grew are read's.
  const scans = async (db: Db) =>
    new Map(
      (
        await queryRows<{ name: string; n: number }>(
          db,
          sql`select c.relname as name, pg_stat_get_xact_numscans(c.oid)::int as n from pg_class c
            where c.relkind = 'i' and c.relnamespace = 'public'::regnamespace`,
        )
      ).map((r) => [r.name, Number(r.n)]),
    );
  return t.ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await tx.execute(sql`set local enable_seqscan = off`);
    const before = await scans(db);
    await read(db);
    const after = await scans(db);
    return [...after].filter(([name, n]) => n > (before.get(name) ?? 0)).map(([name]) => name);
  });
}

describe('periodic tasks read their own indexes (0757)', () => {
  it('the purge of deleted accounts reads accounts_purge_after', async () => {
    expect(await indexesRead((db) => duePurges(db, new Date(), 20))).toEqual(['accounts_purge_after']);
  });

  it("the listed profiles' count reads profiles_listed", async () => {
    const listed = await indexesRead(async (db) => expect(await countListed(db)).toBeGreaterThanOrEqual(3));
    expect(listed).toEqual(['profiles_listed']);
  });

  it('the pictures of an older hash read media_older_hash', async () => {
    const older = await indexesRead(async (db) =>
      expect(await picturesOfOlderHash(db, PICTURE_HASH_VERSION, 20)).toEqual([]),
    );
    expect(older).toEqual(['media_older_hash']);
  });
});
