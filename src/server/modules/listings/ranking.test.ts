// The directory orders its lists by the published rule (#shared/ranking.ts, stated on /what-you-get and
// checked there by ranking-rule.test.ts) and by nothing else: the SQL is built from those constants, no
// other ordering of listings is written anywhere in the server, and real lists come out in that order
// whatever else differs between the profiles (verification, views).
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRanking } from '#shared/ranking.ts';
import { listings, profiles } from '../../db/schema';
import { createAdvertiser, LONDON, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { positionOf, rankingOrder } from './listings.service';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

const serverDir = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('the ranking rule in the directory', () => {
  it('is written once: no server code orders or compares listings by hand', () => {
    const handWritten = /bumped_at\s+(desc|asc)|\w\.bumped_at\s*[<>]=?\s*\w+\.bumped_at/i;
    const offenders = sourceFiles(serverDir)
      .filter((file) => handWritten.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(serverDir, file));
    expect(offenders).toEqual([]);
    expect(t.ctx.db.select().from(listings).orderBy(rankingOrder('l')).toSQL().sql).toMatch(
      /order by l\.bumped_at desc nulls last, l\.id asc$/,
    );
  });

  it('orders a city by it, ties included, whatever verification or views say', async () => {
    const base = Date.now() - 3_600_000;
    const moments = [5, 40, 40, 12, 40, 0, 33, 5].map((m) => new Date(base + m * 60_000));
    const made = [];
    for (const [i, bumpedAt] of moments.entries()) {
      const { account, listing } = await createAdvertiser(t.ctx, { bumpedAt, verified: i % 3 === 0, city: LONDON });
      await t.ctx.db
        .update(profiles)
        .set({ views: (7 - i) * 1000 })
        .where(eq(profiles.userId, account.id));
      made.push({ profile: account.id, id: listing.id, bumpedAt });
    }
    const expected = [...made].sort(compareRanking).map((l) => l.profile);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory',
      payload: { category: 'escorts', country: 'united-kingdom', place: 'london' },
    });
    const listed = (res.json().data as Array<{ id: number }>).map((i) => i.id);
    expect(listed).toEqual(expected);
    // The advertiser's position is the same rank.
    for (const [i, profile] of expected.entries()) expect(await positionOf(t.ctx.db, profile, new Date())).toBe(i + 1);
  });
});
