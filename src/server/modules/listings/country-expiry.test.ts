// A country page shows each listed profile that has an unexpired listing in the country once, at the
// position of its best-ranked one, at any moment of the app's clock: also between the expiry of the
// listing flagged `country_primary` and the periodic task that moves the flag (docs/decisions/0723).
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../db/schema';
import { BERLIN, createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { atClock } from '../../test/clock';
import { createTestApp, type TestApp } from '../../test/helpers';
import { addAdditionalListing, removeExpiredListings } from './listings.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

const DAY = 86_400_000;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

/** The UK page of a category at the app's clock: [profile id, on tour] in order, and the total. */
async function ukPage(category = 'escorts', page = 1) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/directory/getDirectory?page=${page}`,
    payload: { country: 'united-kingdom', category },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  return {
    items: body.data.map((i: { id: number; on_tour: boolean }) => [i.id, i.on_tour]),
    total: body.total as number,
  };
}

/** Every page of the UK list at the app's clock, one after the other: the profile ids and each page's total. */
async function ukAllPages() {
  const ids: number[] = [];
  const totals: number[] = [];
  for (let page = 1; page <= 5; page++) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/directory/getDirectory?page=${page}`,
      payload: { country: 'united-kingdom' },
    });
    const body = res.json();
    ids.push(...body.data.map((i: { id: number }) => i.id));
    totals.push(body.total);
    if (!body.has_more) break;
  }
  return { ids, totals };
}

const tour = (profileId: number, cityId: number, days: number, now: Date) =>
  addAdditionalListing(t.ctx.db, { profileId, cityId, days, from: null, until: null, now });

describe('a country page when the listing that stands for a profile there expires', () => {
  it('shows the profile through its next listing before and after the periodic task', async () => {
    const a = await createAdvertiser(t.ctx, { city: MANCHESTER, bumpedAt: hoursAgo(3) });
    const b = await createAdvertiser(t.ctx, { city: LONDON, bumpedAt: hoursAgo(2) });
    // A new tour of A in London, at the top: it stands for A on the UK page.
    const start = new Date();
    await tour(a.account.id, LONDON.id, 30, start);
    expect(await ukPage()).toEqual({
      items: [
        [a.account.id, true],
        [b.account.id, false],
      ],
      total: 2,
    });

    // A day after the tour ended, the periodic task not yet run: A is there once, through its home.
    const after = new Date(start.getTime() + 31 * DAY);
    const expected = {
      items: [
        [b.account.id, false],
        [a.account.id, false],
      ],
      total: 2,
    };
    await atClock(t.ctx, after, async () => {
      expect(await ukPage()).toEqual(expected);
      expect(await ukPage('female')).toEqual(expected);
      expect(await ukPage('male')).toEqual({ items: [], total: 0 });
      // The task runs: the same answer.
      expect(await removeExpiredListings(t.ctx.db, after)).toBe(1);
      expect(await ukPage()).toEqual(expected);
    });
    // The next case counts the UK page from empty.
    await t.ctx.db.delete(accounts).where(inArray(accounts.id, [a.account.id, b.account.id]));
  });

  it('pages over the country listing every profile exactly once while flagged tours have expired', async () => {
    const c = await createAdvertiser(t.ctx, { city: MANCHESTER, bumpedAt: hoursAgo(5) });
    const d = await createAdvertiser(t.ctx, { city: LONDON, bumpedAt: hoursAgo(4) });
    const e = await createAdvertiser(t.ctx, { city: LONDON, bumpedAt: hoursAgo(1) });
    // Enough profiles between E and D for a second page (24 a page).
    const fillers: number[] = [];
    for (let i = 0; i < 22; i++) {
      const filler = await createAdvertiser(t.ctx, { city: LONDON, bumpedAt: hoursAgo(2 + i / 22) });
      fillers.push(filler.account.id);
    }
    // F lives in Berlin and has two tours in the UK: Manchester (60 days), then London (30 days, newer,
    // so it stands for F on the UK page). C tours London for 30 days.
    const f = await createAdvertiser(t.ctx, { city: BERLIN, bumpedAt: hoursAgo(6) });
    const start = new Date();
    await tour(f.account.id, MANCHESTER.id, 60, new Date(start.getTime() - 60_000));
    await tour(f.account.id, LONDON.id, 30, start);
    await tour(c.account.id, LONDON.id, 30, new Date(start.getTime() - 120_000));
    const [fId, cId, dId, eId] = [f.account.id, c.account.id, d.account.id, e.account.id];
    expect(await ukAllPages()).toEqual({ ids: [fId, cId, eId, ...fillers, dId], totals: [26, 26] });

    // Both flagged tours in London have ended: C stands at its home's place (now on page 2), F at its
    // Manchester tour's; the task has not run yet, then it has.
    const after = new Date(start.getTime() + 31 * DAY);
    const expected = { ids: [fId, eId, ...fillers, dId, cId], totals: [26, 26] };
    await atClock(t.ctx, after, async () => {
      expect(await ukAllPages()).toEqual(expected);
      expect(await removeExpiredListings(t.ctx.db, after)).toBe(2);
      expect(await ukAllPages()).toEqual(expected);
    });

    // Once F's last UK listing has ended too, F is on no UK page, before the task as after it.
    const later = new Date(start.getTime() + 61 * DAY);
    const left = { ids: [eId, ...fillers, dId, cId], totals: [25, 25] };
    await atClock(t.ctx, later, async () => {
      expect(await ukAllPages()).toEqual(left);
      expect(await removeExpiredListings(t.ctx.db, later)).toBe(1);
      expect(await ukAllPages()).toEqual(left);
    });
  });
});
