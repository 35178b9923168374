// Tours ahead (issue 27 item 4, docs/decisions/0323), on PGlite and PostgreSQL: a city page's coming
// visitors are the listed profiles whose tour there starts after now and within the next 14 days, soonest
// first, with their dates; a running tour, a hidden profile and a tour further out are not among them; the
// window moves with the days without a write; the body is strict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../../db/schema';
import { atClock } from '../../test/clock';
import { createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
const ids: Record<string, number> = {};
const DAY = 86_400_000;
const day = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const midnight = (n: number) => new Date(`${day(n)}T00:00:00Z`);

async function tour(profileId: number, fromDay: number, days: number) {
  await t.ctx.db.insert(listings).values({
    profileId,
    cityId: MANCHESTER.id,
    countryCode: 'GB',
    kind: 'additional',
    bumpedAt: new Date(),
    tourFrom: day(fromDay),
    tourUntil: day(fromDay + days),
    tourStartsAt: midnight(fromDay),
    expiresAt: midnight(fromDay + days + 1),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const mk = async (name: string, o: Parameters<typeof createAdvertiser>[1] = {}) =>
    (ids[name] = (await createAdvertiser(t.ctx, { screenName: name, city: LONDON, ...o })).account.id);
  await mk('Home Hana', { city: MANCHESTER });
  await mk('Soon Sara');
  await mk('Sooner Sue');
  await mk('Later Lea');
  await mk('Running Rae');
  await mk('Hidden Hedy', { adStatus: 'hidden' });
  await tour(ids['Soon Sara'], 5, 3);
  await tour(ids['Sooner Sue'], 2, 2);
  await tour(ids['Later Lea'], 20, 3);
  await tour(ids['Running Rae'], -1, 4);
  await tour(ids['Hidden Hedy'], 3, 2);
});
afterAll(() => t.close());

type Item = { id: number; name: string; tour: { state: string; from: string | null; until: string | null } | null };
const ahead = async (body: object = { country: 'united-kingdom', place: 'manchester' }) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/directory/getToursAhead', payload: body });
  return res;
};
const names = async () => ((await ahead()).json().data as Item[]).map((i) => i.name);

describe('POST /api/directory/getToursAhead', () => {
  it('lists who starts a tour in the city within 14 days, soonest first, with the dates', async () => {
    const res = await ahead();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: Item[]; days: number };
    expect(body.days).toBe(14);
    expect(body.data.map((i) => i.name)).toEqual(['Sooner Sue', 'Soon Sara']);
    expect(body.data[0].tour).toEqual({ state: 'coming', from: day(2), until: day(4) });
    // The home advertiser and the running tour are the list's; nobody of another city page.
    const london = await ahead({ country: 'united-kingdom', place: 'london' });
    expect(london.json().data).toEqual([]);
  });

  it('moves with the days, without a write: a tour enters 14 days before it starts and leaves when it starts', async () => {
    expect(await names()).toEqual(['Sooner Sue', 'Soon Sara']);
    await atClock(t.ctx, new Date(Date.now() + 7 * DAY), async () => {
      expect(await names()).toEqual(['Later Lea']);
    });
  });

  it("marks coming tours on the profile, and the feed's new tours link to the city page's section", async () => {
    const profile = (await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids['Sooner Sue']}?track=0` })).json()
      .profile as { tours: Array<{ city: string; coming: boolean }> };
    expect(profile.tours).toEqual([{ city: 'Manchester', from: day(2), until: day(4), coming: true }]);
    const running = (await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids['Running Rae']}?track=0` })).json()
      .profile as { tours: Array<{ coming: boolean }> };
    expect(running.tours.map((x) => x.coming)).toEqual([false]);

    const feed = (await t.app.inject({ method: 'GET', url: '/api/directory/feed/tours' })).json() as {
      data: Array<{ profile: { id: number }; tour: { path: string } }>;
    };
    const pathOf = (name: string) => feed.data.find((e) => e.profile.id === ids[name])?.tour.path;
    expect(pathOf('Sooner Sue')).toBe('/escorts/united-kingdom/manchester#tours-ahead');
    expect(pathOf('Running Rae')).toBe('/escorts/united-kingdom/manchester');
  });

  it('refuses a body it does not expect, and an unknown place', async () => {
    const missing = await ahead({ country: 'united-kingdom' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('place');
    const extra = await ahead({ country: 'united-kingdom', place: 'manchester', page: 2 });
    expect(extra.statusCode).toBe(422);
    expect((await ahead({ country: 'united-kingdom', place: 'atlantis' })).statusCode).toBe(404);
  });
});
