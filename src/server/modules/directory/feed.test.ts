// GET /api/directory/feed/{kind}: newest verified profiles, new photos, new tours; paged.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEED_PAGE_SIZE } from '#shared/schemas/feed.ts';
import { listings, media, profiles } from '../../db/schema';
import { as } from '../../test/as';
import { BERLIN, MANCHESTER, createAdvertiser, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  // FEED_PAGE_SIZE + 2 verified profiles, verified a minute apart: the newest first.
  for (let i = 0; i < FEED_PAGE_SIZE + 2; i++) {
    const { account } = await createAdvertiser(t.ctx, { verified: true, screenName: `Verified ${i}` });
    await t.ctx.db
      .update(profiles)
      .set({ verifiedAt: new Date(Date.UTC(2026, 0, 1, 0, i)) })
      .where(eq(profiles.userId, account.id));
    ids[`v${i}`] = account.id;
  }
  const plain = await createAdvertiser(t.ctx, { screenName: 'Not Verified' });
  const hidden = await createAdvertiser(t.ctx, { verified: true, adStatus: 'hidden', screenName: 'Hidden' });
  ids.plain = plain.account.id;
  ids.hidden = hidden.account.id;
  // Photos: an approved one of a listed profile, a pending one, one of a hidden profile.
  const photo = (userId: number, status: 'approved' | 'pending', minute: number) =>
    t.ctx.db
      .insert(media)
      .values({
        userId,
        type: 'gallery',
        status,
        storageKey: `p/${userId}-${minute}.jpg`,
        mime: 'image/jpeg',
        createdAt: new Date(Date.UTC(2026, 1, 1, 0, minute)),
      })
      .returning();
  ids.photo = (await photo(ids.plain, 'approved', 1))[0].id;
  ids.pendingPhoto = (await photo(ids.plain, 'pending', 2))[0].id;
  ids.hiddenPhoto = (await photo(ids.hidden, 'approved', 3))[0].id;
  // Tours: a current one, an ended one, one of a hidden profile.
  const tour = (profileId: number, city: { id: number; countryCode: string }, from: string, until: string) =>
    t.ctx.db
      .insert(listings)
      .values({
        profileId,
        cityId: city.id,
        countryCode: city.countryCode,
        kind: 'additional',
        tourFrom: from,
        tourUntil: until,
      })
      .returning();
  ids.tour = (await tour(ids.plain, BERLIN, '2020-01-01', '2099-12-31'))[0].id;
  ids.endedTour = (await tour(ids.plain, MANCHESTER, '2020-01-01', '2020-02-01'))[0].id;
  ids.hiddenTour = (await tour(ids.hidden, BERLIN, '2020-01-01', '2099-12-31'))[0].id;
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/directory/feed/{kind}', () => {
  it('lists verified listed profiles, newest verification first, paged', async () => {
    const first = (await as(t).get('/api/directory/feed/profiles')).json();
    expect(first.kind).toBe('profiles');
    expect(first.data).toHaveLength(FEED_PAGE_SIZE);
    expect(first.has_more).toBe(true);
    expect(first.data[0].profile).toMatchObject({ id: ids[`v${FEED_PAGE_SIZE + 1}`], verified: true });
    expect(first.data[0].profile.user.city).toBe('London');
    const second = (await as(t).get('/api/directory/feed/profiles?page=2')).json();
    expect(second.has_more).toBe(false);
    expect(second.data.map((e: { key: number }) => e.key)).toEqual([ids.v1, ids.v0]);
    const all = [...first.data, ...second.data].map((e: { key: number }) => e.key);
    expect(all).not.toContain(ids.plain);
    expect(all).not.toContain(ids.hidden);
  });

  it('lists approved photos of listed profiles only', async () => {
    const photos = (await as(t).get('/api/directory/feed/photos')).json();
    expect(photos.data.map((e: { key: number }) => e.key)).toEqual([ids.photo]);
    expect(photos.data[0].photo.src).toBeTruthy();
    expect(photos.data[0].profile.id).toBe(ids.plain);
  });

  it('lists tours that have not ended, of listed profiles only, with city and dates', async () => {
    const tours = (await as(t).get('/api/directory/feed/tours')).json();
    expect(tours.data.map((e: { key: number }) => e.key)).toEqual([ids.tour]);
    // A running tour links to its city page (a coming one to the page's "Visiting" section: tours-ahead.test.ts).
    expect(tours.data[0].tour).toEqual({
      city: 'Berlin',
      from: '2020-01-01',
      until: '2099-12-31',
      path: '/escorts/germany/berlin',
    });
    expect(tours.data[0].profile.on_tour).toBe(true);
  });

  it('drops a tour once the app clock passes its end or its expiry (the database clock has not)', async () => {
    const keys = async () =>
      (await as(t).get('/api/directory/feed/tours')).json().data.map((e: { key: number }) => e.key) as number[];
    const realNow = t.ctx.now;
    const now = realNow();
    const [dated] = await t.ctx.db
      .insert(listings)
      .values({
        profileId: ids.plain,
        cityId: MANCHESTER.id,
        countryCode: MANCHESTER.countryCode,
        kind: 'additional',
        tourFrom: '2020-01-01',
        tourUntil: new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10),
      })
      .returning();
    await t.ctx.db
      .update(listings)
      .set({ expiresAt: new Date(now.getTime() + 3 * 86_400_000) })
      .where(eq(listings.id, ids.tour));
    try {
      expect(await keys()).toEqual([dated.id, ids.tour]);
      t.ctx.now = () => new Date(now.getTime() + 2 * 86_400_000);
      expect(await keys()).toEqual([ids.tour]);
      t.ctx.now = () => new Date(now.getTime() + 4 * 86_400_000);
      expect(await keys()).toEqual([]);
    } finally {
      t.ctx.now = realNow;
      await t.ctx.db.delete(listings).where(eq(listings.id, dated.id));
      await t.ctx.db.update(listings).set({ expiresAt: null }).where(eq(listings.id, ids.tour));
    }
    expect(await keys()).toEqual([ids.tour]);
  });

  it('answers 404 for an unknown list and 422 for a bad page, never 5xx', async () => {
    expect((await as(t).get('/api/directory/feed/videos')).statusCode).toBe(404);
    for (const url of ['/api/directory/feed/profiles?page=0', '/api/directory/feed/profiles?page=x']) {
      expect((await as(t).get(url)).statusCode, url).toBe(422);
    }
  });
});
