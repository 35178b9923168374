// Issue 23, items 1 and 2 (docs/decisions/0403): a tour's dates lie inside the 30 paid days, its listing
// ends with its last day, and the directory shows it "on tour" only while it runs, announcing it before:
// the server's answer, cached or not, turns at the tour's first midnight in the city.
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings } from '../../db/schema';
import { as } from '../../test/as';
import { atClock } from '../../test/clock';
import { BERLIN, createAdvertiser, createSession, seedGeo, type Session } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import * as money from '../money/money.service';

let t: TestApp;
let admin: number;

beforeAll(async () => {
  t = await createTestApp({ PRICE_ADDITIONAL_LOCATION: '1500', MIN_TOPUP: '1000' });
  await seedGeo(t.ctx);
  admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
});
afterAll(() => t.close());

/** Berlin's calendar day `n` days after today (by the app's clock). */
const berlinDay = (n: number) =>
  DateTime.fromJSDate(t.ctx.now(), { zone: BERLIN.timezone }).startOf('day').plus({ days: n });
const day = (n: number) => berlinDay(n).toISODate()!;

async function advertiser(balance: number) {
  const { account } = await createAdvertiser(t.ctx, { bumpedAt: new Date(Date.now() - 86_400_000) });
  await money.adjustBalance(t.ctx, {
    actor: { id: admin },
    userId: account.id,
    amount: balance,
    reason: 'test',
    idempotencyKey: crypto.randomUUID(),
  });
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}

async function buyBerlin(a: { session: Session }, dates: { from?: string; until?: string }) {
  const added = await as(t, a.session).post('/api/payment/addToCart', {
    uid: 'additional_location',
    city_id: BERLIN.id,
    ...dates,
  });
  expect(added.statusCode).toBe(200);
  const paid = await as(t, a.session).post('/api/payment/makePayment', {
    method: 'balance',
    idempotency_key: crypto.randomUUID(),
    expected_total: added.json().data.total,
  });
  expect(paid.statusCode).toBe(200);
}

const berlinCard = async (id: number) => {
  const res = await as(t).post('/api/directory/getDirectory', { country: 'germany', place: 'berlin' });
  expect(res.statusCode).toBe(200);
  return (res.json().data as Array<{ id: number; on_tour: boolean; tour: unknown }>).find((i) => i.id === id);
};

describe('tours (decision 0403)', () => {
  it('refuses dates outside the 30 paid days (422, nothing added), ends a tour listing with its last day in the city, renews from the paid end', async () => {
    const a = await advertiser(5000);
    const add = (dates: object) =>
      as(t, a.session).post('/api/payment/addToCart', { uid: 'additional_location', city_id: BERLIN.id, ...dates });
    // A tour three months away would be paid for days it is not in the city.
    const far = await add({ from: day(90), until: day(93) });
    expect(far.statusCode).toBe(422);
    expect(far.json().errors.from).toBeDefined();
    const long = await add({ from: day(5), until: day(31) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.until).toBeDefined();
    expect((await add({ until: day(-1) })).statusCode).toBe(422);
    expect((await money.getCart(t.ctx, a.id)).items).toEqual([]);
    // The last paid day itself is inside.
    expect((await add({ from: day(28), until: day(30) })).statusCode).toBe(200);
    await as(t, a.session).post('/api/payment/removeCartItem', {
      uid: (await money.getCart(t.ctx, a.id)).items[0].uid,
    });

    await buyBerlin(a, { from: day(5), until: day(8) });
    const [row] = await t.ctx.db
      .select()
      .from(listings)
      .where(and(eq(listings.profileId, a.id), eq(listings.kind, 'additional')));
    expect(row.tourStartsAt?.toISOString()).toBe(berlinDay(5).toJSDate().toISOString());
    expect(row.expiresAt?.toISOString()).toBe(berlinDay(9).toJSDate().toISOString());
    expect(Math.round((row.paidUntil!.getTime() - t.ctx.now().getTime()) / 86_400_000)).toBe(30);

    // The dates move within the paid days (and the listing's end with them), never beyond.
    const set = (from: string | null, until: string | null) =>
      as(t, a.session).post(`/api/edit/setTourDates/${a.id}`, { listing_id: row.id, from, until });
    expect((await set(day(10), day(31))).statusCode).toBe(422);
    expect((await set(day(10), day(20))).statusCode).toBe(200);
    const [moved] = await t.ctx.db.select().from(listings).where(eq(listings.id, row.id));
    expect(moved.expiresAt?.toISOString()).toBe(berlinDay(21).toJSDate().toISOString());
    expect(moved.paidUntil?.toISOString()).toBe(row.paidUntil?.toISOString());

    // A renewal while it runs adds 30 days to the paid end: a tour up to day 60 fits then.
    await buyBerlin(a, { from: day(40), until: day(55) });
    const [renewed] = await t.ctx.db.select().from(listings).where(eq(listings.id, row.id));
    expect(renewed.paidUntil!.getTime() - row.paidUntil!.getTime()).toBe(30 * 86_400_000);
    expect(renewed.expiresAt?.toISOString()).toBe(berlinDay(56).toJSDate().toISOString());
  });

  it('announces a coming tour, shows it on tour with its dates while it runs, and not after, in cached answers too', async () => {
    const a = await advertiser(5000);
    await buyBerlin(a, { from: day(3), until: day(5) });
    const before = await berlinCard(a.id);
    expect(before).toMatchObject({ on_tour: false, tour: { state: 'coming', from: day(3), until: day(5) } });
    // Read twice: the second answer is the cached one, and it must still turn at the tour's first moment.
    expect(await berlinCard(a.id)).toEqual(before);
    const start = berlinDay(3).toJSDate();
    await atClock(t.ctx, new Date(start.getTime() - 1), async () => {
      expect((await berlinCard(a.id))?.tour).toMatchObject({ state: 'coming' });
    });
    await atClock(t.ctx, start, async () => {
      expect(await berlinCard(a.id)).toMatchObject({ on_tour: true, tour: { state: 'now' } });
      expect(await berlinCard(a.id)).toMatchObject({ on_tour: true, tour: { state: 'now' } });
    });
    await atClock(t.ctx, berlinDay(6).toJSDate(), async () => {
      expect(await berlinCard(a.id)).toBeUndefined();
    });
  });
});
