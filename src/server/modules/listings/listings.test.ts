import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { listings } from '../../db/schema';
import { createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import {
  addAdditionalListing,
  bumpProfile,
  positionOf,
  refreshCountryPrimary,
  removeExpiredListings,
} from './listings.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

const ukPage = async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/directory/getDirectory',
    payload: { country: 'united-kingdom' },
  });
  return res.json().data.map((i: { id: number; on_tour: boolean }) => [i.id, i.on_tour]);
};

describe('listings and position', () => {
  it('a standard top-up moves every listing of the profile to position 1', async () => {
    const a = await createAdvertiser(t.ctx, { bumpedAt: new Date(Date.now() - 3_600_000) });
    const b = await createAdvertiser(t.ctx, { bumpedAt: new Date(Date.now() - 60_000) });
    expect(await ukPage()).toEqual([
      [b.account.id, false],
      [a.account.id, false],
    ]);
    expect(await positionOf(t.ctx.db, a.account.id, new Date())).toBe(2);
    await bumpProfile(t.ctx.db, a.account.id, new Date());
    expect((await ukPage()).map((r: [number]) => r[0])).toEqual([a.account.id, b.account.id]);
    expect(await positionOf(t.ctx.db, a.account.id, new Date())).toBe(1);
    expect(await positionOf(t.ctx.db, b.account.id, new Date())).toBe(2);
  });

  it('shows a profile once per country through its best-ranked listing, and drops expired locations', async () => {
    const c = await createAdvertiser(t.ctx, { city: MANCHESTER, bumpedAt: new Date(Date.now() - 7_200_000) });
    // A newer tour in London, in the same country as home: it stands for the profile on the UK page.
    await t.ctx.db.insert(listings).values({
      profileId: c.account.id,
      cityId: LONDON.id,
      countryCode: 'GB',
      kind: 'additional',
      bumpedAt: new Date(),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    await refreshCountryPrimary(t.ctx.db, t.ctx.now(), [c.account.id]);
    const page = await ukPage();
    expect(page.filter((r: [number]) => r[0] === c.account.id)).toEqual([[c.account.id, true]]);
    expect(page[0]).toEqual([c.account.id, true]);

    // The tour ends in a day by the app's clock, the one clock of the app and its SQL: moved two days on,
    // the job removes it (the database's own clock still says it runs).
    const realNow = t.ctx.now;
    t.ctx.now = () => new Date(Date.now() + 2 * 86_400_000);
    try {
      expect(await removeExpiredListings(t.ctx.db, t.ctx.now())).toBe(1);
      const after = await ukPage();
      expect(after.filter((r: [number]) => r[0] === c.account.id)).toEqual([[c.account.id, false]]);
      expect(after.at(-1)).toEqual([c.account.id, false]);
    } finally {
      t.ctx.now = realNow;
    }
    const left = await queryRows<{ n: number }>(
      t.ctx.db,
      sql`select count(*)::int as n from listings where kind = 'additional'`,
    );
    expect(left[0].n).toBe(0);
  });

  it('dates a bought location by the clock it is given: created, moved to the top and ending from it', async () => {
    const d = await createAdvertiser(t.ctx);
    const now = new Date(Date.now() + 3_600_000);
    await addAdditionalListing(t.ctx.db, {
      profileId: d.account.id,
      cityId: MANCHESTER.id,
      days: 30,
      from: null,
      until: null,
      now,
    });
    const [row] = await t.ctx.db
      .select()
      .from(listings)
      .where(and(eq(listings.profileId, d.account.id), eq(listings.kind, 'additional')));
    expect(row).toMatchObject({ createdAt: now, bumpedAt: now, expiresAt: new Date(now.getTime() + 30 * 86_400_000) });
  });
});
