// A seeded embedded installation (PGlite on disk, media in its directory) moved into PostgreSQL and S3
// (s3rver): every profile, picture and balance is found on the other side, and the new database hands
// out fresh ids after the old ones. Runs in the PostgreSQL project (it needs a server to move to).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMediaStore, openRuntime, type Runtime } from '../bootstrap';
import { loadEnv } from '../env';
import { LocalMediaStore } from '../lib/media-store';
import { balanceOf } from '../modules/money/ledger';
import { adjustBalance } from '../modules/money/adjust';
import { keysOf } from '../modules/media/media.presenter';
import { seedDemo } from '../modules/seed/seed';
import { seedGeo } from '../test/factories';
import { backend, createScratchDatabase } from '../test/helpers';
import { startS3, type TestS3 } from '../test/s3';
import { openDatabase, queryRows, type Database } from './client';
import { moveInstallation } from './move-installation';
import { accounts, media, profiles } from './schema';
import { sql } from 'drizzle-orm';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(backend !== 'postgres' || !url)('moving an embedded installation to PostgreSQL and S3', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'move-from-'));
  let source: Runtime;
  let target: Database;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let s3: TestS3;

  beforeAll(async () => {
    source = await openRuntime(
      loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SESSION_SECRET: 'x'.repeat(32) }),
    );
    await seedGeo(source.ctx);
    await seedDemo(source.ctx, { profiles: 12, gallery: true, seed: 7 });
    const some = await source.ctx.db.select({ id: accounts.id }).from(accounts).limit(3);
    for (const [i, a] of some.entries())
      await adjustBalance(source.ctx, {
        actor: { id: a.id },
        userId: a.id,
        amount: 1000 * (i + 1),
        reason: 'moved',
        idempotencyKey: `move-${i}`,
      });
    scratch = await createScratchDatabase(url!, 'move');
    target = await openDatabase({ url: scratch.url });
    s3 = await startS3();
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
    await scratch?.drop();
    await s3?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds every profile, picture and balance on the other side', async () => {
    const store = openMediaStore(loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, ...s3.env }));
    const result = await moveInstallation(
      { db: source.ctx.db, media: source.ctx.media as LocalMediaStore },
      { db: target.db, media: store },
    );
    // The 12 demo advertisers and the seed's admin.
    expect(result.rows.profiles).toBeGreaterThanOrEqual(12);
    expect(result.files.public).toBeGreaterThan(12);

    const before = await source.ctx.db.select().from(profiles).orderBy(profiles.userId);
    const after = await target.db.select().from(profiles).orderBy(profiles.userId);
    expect(after).toEqual(before);

    const pictures = await source.ctx.db.select().from(media);
    expect(pictures.length).toBeGreaterThan(12);
    expect(await target.db.select().from(media).orderBy(media.id)).toEqual([...pictures].sort((a, b) => a.id - b.id));
    for (const row of pictures)
      for (const key of keysOf(row)) {
        const moved = await store.get('public', key);
        expect(moved, key).not.toBeNull();
        expect(moved!.equals((await source.ctx.media.get('public', key))!)).toBe(true);
      }

    for (const a of await source.ctx.db.select({ id: accounts.id }).from(accounts))
      expect(await balanceOf(target.db, a.id)).toBe(await balanceOf(source.ctx.db, a.id));
    const [{ n }] = await queryRows<{ n: number }>(
      target.db,
      sql`select count(*)::int as n from ledger_accounts where balance <> 0`,
    );
    expect(n).toBeGreaterThanOrEqual(3);

    // New rows get ids after the moved ones.
    const [{ max }] = await queryRows<{ max: number }>(target.db, sql`select max(id)::int as max from accounts`);
    const [{ id }] = await queryRows<{ id: number }>(
      target.db,
      sql`select nextval(pg_get_serial_sequence('accounts', 'id'))::int as id`,
    );
    expect(Number(id)).toBeGreaterThan(max);

    // A second run finds accounts there and changes nothing.
    await expect(
      moveInstallation(
        { db: source.ctx.db, media: source.ctx.media as LocalMediaStore },
        { db: target.db, media: store },
      ),
    ).rejects.toThrow(/already has accounts/);
  });
});
