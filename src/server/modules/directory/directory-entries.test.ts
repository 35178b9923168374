// directory_entries holds, for each listing of a listed profile, what its lists rank and filter on
// (decision 0734): every kind of write leaves it equal to what the view directory_facts computes from
// listings, profiles and media, and a change of facts alone changes no count and no navigation scope
// (only the lists that hold her). On PGlite and PostgreSQL.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { listings, media, profiles } from '../../db/schema';
import { createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;

const COLUMNS = sql.raw(`listing_id, profile_id, country_code, city_id, is_primary, cats, kind, bumped_at, expires_at,
  shown_birth_date, currency, price, incall, outcall, services, languages, verified, video, available_until, search_text`);

/** Rows where directory_entries and directory_facts disagree (either side). */
async function differences() {
  return queryRows<{ listing_id: number; side: string }>(
    t.ctx.db,
    sql`(select 'facts' as side, listing_id from (select ${COLUMNS} from directory_facts
           except select ${COLUMNS} from directory_entries) a)
        union all (select 'entries', listing_id from (select ${COLUMNS} from directory_entries
           except select ${COLUMNS} from directory_facts) b)`,
  );
}

async function entriesOf(profileId: number) {
  return queryRows<{
    listing_id: number;
    kind: string;
    price: string | null;
    currency: string | null;
    incall: boolean;
    outcall: boolean;
    services: string[];
    languages: string[];
    verified: boolean;
    video: boolean;
    shown_birth_date: string | null;
    available_until: Date | string | null;
    bumped_at: Date | string;
    expires_at: Date | string | null;
    search_text: string;
  }>(t.ctx.db, sql`select * from directory_entries where profile_id = ${profileId} order by listing_id`);
}

const scopeVersion = async (scope: string) =>
  (await queryRows<{ v: string }>(t.ctx.db, sql`select v::text from directory_scopes where scope = ${scope}`))[0]?.v ??
  null;
const counts = () =>
  queryRows<{ k: string; n: number }>(
    t.ctx.db,
    sql`select country_code || ':' || city_id || ':' || category as k, n from directory_counts order by 1`,
  );

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});

describe('directory_entries keeps the facts of each list', () => {
  it('follows every kind of write: profile facts, rates, video, top-up, a tour and its expiry, hiding', async () => {
    const { account } = await createAdvertiser(t.ctx, { screenName: 'Entry One' });
    const id = account.id;
    expect(await differences()).toEqual([]);
    expect(await entriesOf(id)).toHaveLength(1);

    // What she shows: age, currency and rates, services, languages, verified, available now.
    const until = new Date(t.ctx.now().getTime() + 3_600_000);
    await t.ctx.db
      .update(profiles)
      .set({
        shownBirthDate: '1995-04-02',
        currency: 'GBP',
        rates: { incall: { '60min': 180, '30min': 100 }, outcall: { '60min': 250 } },
        services: ['gfe', 'massage'],
        languages: ['en', 'pt'],
        verificationStatus: 'verified',
        availableUntil: until,
      })
      .where(eq(profiles.userId, id));
    expect(await differences()).toEqual([]);
    let [e] = await entriesOf(id);
    expect(e).toMatchObject({
      shown_birth_date: '1995-04-02',
      currency: 'GBP',
      incall: true,
      outcall: true,
      services: ['gfe', 'massage'],
      languages: ['en', 'pt'],
      verified: true,
      video: false,
    });
    expect(Number(e.price)).toBe(180);
    expect(new Date(e.available_until!).getTime()).toBe(until.getTime());

    // Her search text (decision 0737).
    await t.ctx.db.update(profiles).set({ searchText: 'entry one quokka' }).where(eq(profiles.userId, id));
    expect((await entriesOf(id))[0].search_text).toBe('entry one quokka');

    // Only visits: her price is the out-call hour.
    await t.ctx.db
      .update(profiles)
      .set({ rates: { incall: {}, outcall: { '60min': 300 } } })
      .where(eq(profiles.userId, id));
    [e] = await entriesOf(id);
    expect(e).toMatchObject({ incall: false, outcall: true });
    expect(Number(e.price)).toBe(300);

    // A video counts once approved, and no longer once rejected.
    const [video] = await t.ctx.db
      .insert(media)
      .values({ userId: id, type: 'video', status: 'pending', storageKey: 'v/e1.mp4', mime: 'video/mp4' })
      .returning();
    expect((await entriesOf(id))[0].video).toBe(false);
    await t.ctx.db.update(media).set({ status: 'approved' }).where(eq(media.id, video.id));
    expect((await entriesOf(id))[0].video).toBe(true);
    expect(await differences()).toEqual([]);
    await t.ctx.db.delete(media).where(eq(media.id, video.id));
    expect((await entriesOf(id))[0].video).toBe(false);

    // A top-up moves her rank keys.
    const bumped = new Date(t.ctx.now().getTime() + 60_000);
    await t.ctx.db.update(listings).set({ bumpedAt: bumped }).where(eq(listings.profileId, id));
    expect(new Date((await entriesOf(id))[0].bumped_at).getTime()).toBe(bumped.getTime());

    // A tour: its own entry, with its expiry, which follows a change.
    const ends = new Date(t.ctx.now().getTime() + 5 * 86_400_000);
    const [tour] = await t.ctx.db
      .insert(listings)
      .values({
        profileId: id,
        cityId: MANCHESTER.id,
        countryCode: MANCHESTER.countryCode,
        kind: 'additional',
        expiresAt: ends,
        countryPrimary: false,
      })
      .returning();
    let rows = await entriesOf(id);
    expect(rows.map((r) => r.kind)).toEqual(['home', 'additional']);
    expect(new Date(rows[1].expires_at!).getTime()).toBe(ends.getTime());
    const later = new Date(ends.getTime() + 86_400_000);
    await t.ctx.db.update(listings).set({ expiresAt: later }).where(eq(listings.id, tour.id));
    rows = await entriesOf(id);
    expect(new Date(rows[1].expires_at!).getTime()).toBe(later.getTime());
    expect(await differences()).toEqual([]);

    // Hidden: no entry at all.
    await t.ctx.db.update(profiles).set({ listed: false }).where(eq(profiles.userId, id));
    expect(await entriesOf(id)).toEqual([]);
    expect(await differences()).toEqual([]);
  });

  it('changes no count and no navigation scope when only facts change, and the lists that hold her', async () => {
    const { account } = await createAdvertiser(t.ctx, { screenName: 'Entry Two', city: LONDON });
    const before = { counts: await counts(), nav: await scopeVersion('n:GB'), all: await scopeVersion('n:*') };
    const city = await scopeVersion(`y:GB:${LONDON.id}:escorts`);
    await t.ctx.db
      .update(profiles)
      .set({ currency: 'GBP', rates: { incall: { '60min': 120 } }, services: ['gfe'] })
      .where(eq(profiles.userId, account.id));
    expect(Number((await entriesOf(account.id))[0].price)).toBe(120);
    expect(await counts()).toEqual(before.counts);
    expect(await scopeVersion('n:GB')).toBe(before.nav);
    expect(await scopeVersion('n:*')).toBe(before.all);
    // The city's list holds her: its version moved.
    expect(await scopeVersion(`y:GB:${LONDON.id}:escorts`)).not.toBe(city);
    expect(await differences()).toEqual([]);
  });
});
