// Her age on the profile (issue 27, item 2; docs/decisions/0321), on PGlite and PostgreSQL: off for every
// profile until she turns it on (existing ads do not start showing it), computed from the date of birth
// given at registration on the app clock's day, "checked" once her ID verification is, never the date;
// the cached profile answer turns on her birthday.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { accounts, profiles } from '../../db/schema';
import { atClock } from '../../test/clock';
import { createAdvertiser, createSession, seedGeo, type Session } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
let id: number;
let owner: Session;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  id = (await createAdvertiser(t.ctx, { screenName: 'Greta Age' })).account.id;
  await t.ctx.db.update(accounts).set({ dateOfBirth: '1991-06-15' }).where(eq(accounts.id, id));
  owner = await createSession(t.ctx, id);
});
afterAll(() => t.close());

const profile = async () => {
  const res = await t.app.inject({ method: 'GET', url: `/api/getProfile/${id}?track=0` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().profile;
};
const setShowAge = (value: unknown, session: Session = owner) =>
  t.app.inject({
    method: 'POST',
    url: `/api/edit/setAttribute/${id}`,
    ...session,
    payload: { attribute: 'show_age', value },
  });
const overview = async () =>
  (await t.app.inject({ method: 'GET', url: `/api/edit/getOverview/${id}/7`, ...owner })).json().data;
const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('her age on the profile', () => {
  it('is off for every profile until she turns it on', async () => {
    const [{ n }] = await queryRows<{ n: number }>(
      t.ctx.db,
      sql`select count(*)::int as n from profiles where shown_birth_date is not null`,
    );
    expect(n).toBe(0);
    expect((await profile()).age).toBeNull();
    const o = await overview();
    expect(o.age.shown).toBe(false);
    expect(o.age.years).toBeGreaterThanOrEqual(35);
  });

  it('shows the age from the date of birth, on her birthday the next one, and never the date', async () => {
    const res = await setShowAge(true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ attribute: 'show_age', value: true });
    const at = (iso: string) => atClock(t.ctx, day(iso), profile);
    expect((await at('2031-06-14')).age).toEqual({ years: 39, checked: false });
    // Cached the day before; her birthday is a new day, so a new answer.
    expect((await at('2031-06-15')).age).toEqual({ years: 40, checked: false });
    const body = JSON.stringify(await profile());
    expect(body).not.toContain('1991');
    expect(JSON.stringify(await overview())).not.toContain('1991');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/getUpdateData/${id}`, ...owner })).json().data.show_age,
    ).toBe(true);
    // Showing it changed nothing the directory derives: still listed.
    const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, id));
    expect(row.listed).toBe(true);
    expect(row.shownBirthDate).toBe('1991-06-15');
  });

  it('says "age checked" once her ID verification is done', async () => {
    await t.ctx.db
      .update(profiles)
      .set({ verificationStatus: 'verified', verifiedAt: new Date() })
      .where(eq(profiles.userId, id));
    expect((await profile()).age.checked).toBe(true);
    expect((await overview()).age).toMatchObject({ shown: true, checked: true });
    await t.ctx.db
      .update(profiles)
      .set({ verificationStatus: 'none', verifiedAt: null })
      .where(eq(profiles.userId, id));
  });

  it('is hidden again in one call, by the owner or an admin only', async () => {
    expect((await setShowAge('yes')).statusCode).toBe(422);
    const stranger = await createSession(t.ctx, (await createAdvertiser(t.ctx)).account.id);
    expect((await setShowAge(false, stranger)).statusCode).toBe(403);
    expect((await profile()).age).not.toBeNull();
    expect((await setShowAge(false)).json().data).toEqual({ attribute: 'show_age', value: false });
    expect((await profile()).age).toBeNull();
    const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, id));
    expect(row.shownBirthDate).toBeNull();
  });
});
