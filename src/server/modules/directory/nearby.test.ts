import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../../db/schema';
import { BERLIN, createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { refreshCountryPrimary } from '../listings/listings.service';

let t: TestApp;
const expected: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const at = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  // 50 in Manchester (the first 10 also on tour in London), 3 at home in London, 2 in Berlin.
  const manchester: number[] = [];
  for (let i = 0; i < 50; i++) {
    const { account } = await createAdvertiser(t.ctx, { city: MANCHESTER, bumpedAt: at(i) });
    manchester.push(account.id);
    if (i < 10) {
      await t.ctx.db
        .insert(listings)
        .values({ profileId: account.id, cityId: LONDON.id, countryCode: 'GB', kind: 'additional', bumpedAt: at(0) });
    }
  }
  const london: number[] = [];
  for (let i = 0; i < 3; i++)
    london.push((await createAdvertiser(t.ctx, { city: LONDON, bumpedAt: at(100 + i) })).account.id);
  const berlin: number[] = [];
  for (let i = 0; i < 2; i++)
    berlin.push((await createAdvertiser(t.ctx, { city: BERLIN, bumpedAt: at(200 + i) })).account.id);
  await refreshCountryPrimary(t.ctx.db, t.ctx.now());
  // From Manchester: its 50 by position, then London's own 3 (the touring 10 are nearer at home), then Berlin.
  expected.push(...manchester, ...london, ...berlin);
});
afterAll(() => t.close());

const page = async (n: number) =>
  (
    await t.app.inject({ method: 'POST', url: `/api/directory/nearby?page=${n}`, payload: { lat: 53.48, lng: -2.24 } })
  ).json();

describe('nearby across pages', () => {
  it('lists every profile once, nearest city first, by position inside a city', async () => {
    const pages = [await page(1), await page(2), await page(3)];
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    const ids = pages.flatMap((p) => p.data.map((i: { id: number }) => i.id));
    expect(ids).toEqual(expected);
    const km = pages.flatMap((p) => p.data.map((i: { distance_km: number }) => i.distance_km));
    expect(km).toEqual([...km].sort((a, b) => a - b));
  });
});
