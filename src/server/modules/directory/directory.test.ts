import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../../db/schema';
import { refreshCountryPrimary } from '../listings/listings.service';
import { createAdvertiser, createSession, MANCHESTER, BERLIN, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const mk = async (key: string, o: Parameters<typeof createAdvertiser>[1]) => {
    ids[key] = (await createAdvertiser(t.ctx, o)).account.id;
  };
  await mk('older', { bumpedAt: minutesAgo(60), gender: 'female', screenName: 'Older Olivia' });
  await mk('newest', { bumpedAt: minutesAgo(1), gender: 'male', screenName: 'Newest Nico' });
  await mk('middle', {
    bumpedAt: minutesAgo(30),
    gender: 'trans',
    dominatrix: true,
    city: MANCHESTER,
    screenName: 'Middle Mia',
  });
  await mk('hidden', { bumpedAt: minutesAgo(0), adStatus: 'hidden', screenName: 'Hidden Hanna' });
  await mk('flagged', { bumpedAt: minutesAgo(0), flagged: true, screenName: 'Flagged Fay' });
  await mk('berlin', { bumpedAt: minutesAgo(5), city: BERLIN, screenName: 'Berlin Bea', verified: true });
  // "older" also tours Manchester: the UK page must still show her once.
  await t.ctx.db.insert(listings).values({
    profileId: ids.older,
    cityId: MANCHESTER.id,
    countryCode: 'GB',
    kind: 'additional',
    bumpedAt: minutesAgo(60),
    tourFrom: '2026-01-01',
    tourUntil: '2026-01-10',
  });
  await refreshCountryPrimary(t.ctx.db, t.ctx.now());
});
afterAll(() => t.close());

const directory = (payload: object, page = 1) =>
  t.app.inject({ method: 'POST', url: `/api/directory/getDirectory?page=${page}`, payload });

describe('getDirectory', () => {
  it('orders a country by bumped_at, newest first, and shows each profile once', async () => {
    const res = await directory({ category: 'escorts', country: 'united-kingdom' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((i: { id: number }) => i.id)).toEqual([ids.newest, ids.middle, ids.older]);
    expect(body.data.map((i: { position: number }) => i.position)).toEqual([1, 2, 3]);
    expect(body).toMatchObject({ page: 1, has_more: false, total: 3 });
  });

  it('never lists hidden or flagged profiles', async () => {
    const body = (await directory({ country: 'united-kingdom' })).json();
    const listed = body.data.map((i: { id: number }) => i.id);
    expect(listed).not.toContain(ids.hidden);
    expect(listed).not.toContain(ids.flagged);
  });

  it('filters by category and place', async () => {
    const female = (await directory({ category: 'female', country: 'united-kingdom' })).json();
    expect(female.data.map((i: { id: number }) => i.id)).toEqual([ids.older]);
    const dom = (await directory({ category: 'dom', country: 'united-kingdom' })).json();
    expect(dom.data.map((i: { id: number }) => i.id)).toEqual([ids.middle]);
    const manchester = (
      await directory({ category: 'escorts', country: 'united-kingdom', place: 'manchester' })
    ).json();
    expect(manchester.data.map((i: { id: number; on_tour: boolean }) => [i.id, i.on_tour])).toEqual([
      [ids.middle, false],
      [ids.older, true],
    ]);
  });

  it('presents items with the label fields and no private data', async () => {
    const body = (await directory({ country: 'germany' })).json();
    expect(body.data).toHaveLength(1);
    const item = body.data[0];
    expect(item).toMatchObject({
      id: ids.berlin,
      name: 'Berlin Bea',
      verified: true,
      user: { city: 'Berlin', place: null },
    });
    expect(JSON.stringify(item)).not.toMatch(/email|password|phone/);
  });

  it('answers 404 for an unknown country or place', async () => {
    expect((await directory({ country: 'atlantis' })).statusCode).toBe(404);
    expect((await directory({ country: 'germany', place: 'london' })).statusCode).toBe(404);
  });

  it('pages past the end with an empty page', async () => {
    const body = (await directory({ country: 'united-kingdom' }, 2)).json();
    expect(body).toMatchObject({ data: [], page: 2, has_more: false });
  });
});

describe('getNavigation and countries', () => {
  it('gives places with counts and category counts', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getNavigation',
      payload: { country: 'united-kingdom' },
    });
    const nav = res.json();
    expect(nav.country).toEqual({ code: 'GB', slug: 'united-kingdom', name: 'United Kingdom' });
    expect(nav.places).toEqual([
      { slug: 'london', name: 'London', count: 2 },
      { slug: 'manchester', name: 'Manchester', count: 2 },
    ]);
    expect(nav.counts).toEqual({ escorts: 3, female: 1, male: 1, trans: 1, dom: 1 });
    expect(nav.title).toBe('Escorts in United Kingdom');
  });

  it('lists countries that have listed profiles', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/directory/countries' });
    expect(res.json().data).toEqual([
      { code: 'DE', slug: 'germany', name: 'Germany', count: 1 },
      { code: 'GB', slug: 'united-kingdom', name: 'United Kingdom', count: 3 },
    ]);
  });
});

describe('getProfile', () => {
  it('returns a listed profile with tours, by id and by name', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids.older}?render=1` });
    expect(res.statusCode).toBe(200);
    const { profile } = res.json();
    expect(profile).toMatchObject({ user_id: ids.older, screen_name: 'Older Olivia', can_edit: false });
    expect(profile.city).toMatchObject({ name: 'London', country: 'United Kingdom' });
    expect(profile.tours).toEqual([{ city: 'Manchester', from: '2026-01-01', until: '2026-01-10', coming: false }]);
    const byName = await t.app.inject({ method: 'GET', url: '/api/getProfileByName/older%20olivia' });
    expect(byName.json().profile.user_id).toBe(ids.older);
  });

  it('hides an unlisted profile from visitors but not from its owner', async () => {
    const visitor = await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids.hidden}` });
    expect(visitor.statusCode).toBe(404);
    const session = await createSession(t.ctx, ids.hidden);
    const owner = await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids.hidden}`, cookies: session.cookies });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().profile.can_edit).toBe(true);
  });

  it('stops listing an expired tour', async () => {
    await t.ctx.db
      .update(listings)
      .set({ expiresAt: minutesAgo(1) })
      .where(eq(listings.kind, 'additional'));
    await refreshCountryPrimary(t.ctx.db, t.ctx.now());
    const manchester = (await directory({ country: 'united-kingdom', place: 'manchester' })).json();
    expect(manchester.data.map((i: { id: number }) => i.id)).toEqual([ids.middle]);
  });
});
