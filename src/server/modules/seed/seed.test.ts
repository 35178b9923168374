import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENDERS, SERVICES, SLUG_PATTERN } from '#shared/constants.ts';
import type { Database } from '../../db/client';
import { LocalMediaStore } from '../../lib/media-store';
import { verifyPassword } from '../../lib/password';
import { importGeo } from '../geo/geo-import';
import { buildSearchText, isListed } from '../profiles/profile-derive';
import { rowsOf } from '../../db/bulk-insert';
import { checkPhone } from '#shared/rules/phone.ts';
import { seedDemo } from './seed';
import { openTestDatabase } from '../../test/helpers';

describe('seedDemo', () => {
  let database: Database;
  let mediaDir: string;
  let store: LocalMediaStore;

  beforeAll(async () => {
    database = await openTestDatabase('seed_test');
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-media-'));
    store = new LocalMediaStore(mediaDir);
    await importGeo(database.db);
  });
  afterAll(async () => {
    await database?.close();
    if (mediaDir) fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));

  it('creates a varied directory, the admin and the defaults, once', async () => {
    const ctx = { db: database.db, media: store };
    const messages: string[] = [];
    const result = await seedDemo(ctx, { profiles: 120, log: (m) => messages.push(m) });
    expect(result).toMatchObject({ skipped: false, profiles: 120 });
    expect(messages.length).toBeGreaterThan(0);
    // The lists' index-only scans need directory_entries vacuumed once seeded (decision 0734).
    const [vacuumed] = await q<{ n: string }>(
      sql`select vacuum_count + autovacuum_count as n from pg_stat_user_tables where relname = 'directory_entries'`,
    );
    expect(Number(vacuumed.n)).toBeGreaterThan(0);

    // The admin signs in with the returned password.
    expect(result.admin).toMatchObject({ username: 'admin', email: 'admin@example.test' });
    expect(result.admin!.password).toMatch(/^[A-Za-z0-9]{16}$/);
    const [admin] = await q<{ role: string; password_hash: string }>(
      sql`select role, password_hash from accounts where username = 'admin'`,
    );
    expect(admin.role).toBe('admin');
    expect(await verifyPassword(admin.password_hash, result.admin!.password)).toBe(true);

    const profiles = await q<{
      user_id: number;
      screen_name: string;
      heading: string;
      about: string | null;
      gender: string;
      dominatrix: boolean;
      verification_status: string;
      verified_at: string | null;
      listed: boolean;
      complete: boolean;
      ad_status: string;
      flagged: boolean;
      services: string[];
      search_text: string;
      place: string | null;
      phone: string | null;
      city_name: string;
      country_code: string;
      avatar_key: string | null;
      avatar_user: number | null;
      email: string;
      username: string;
      date_of_birth: string;
      shown_birth_date: string | null;
      status: string;
    }>(sql`
      select p.*, p.shown_birth_date::text as shown_birth_date, c.name as city_name, c.country_code, m.storage_key as avatar_key, m.user_id as avatar_user,
             a.email, a.username, a.date_of_birth::text as date_of_birth, a.status
      from profiles p join accounts a on a.id = p.user_id
      join cities c on c.id = p.city_id
      left join media m on m.id = p.avatar_media_id
      where a.role = 'advertiser'`);
    expect(profiles).toHaveLength(120);

    expect(new Set(profiles.map((p) => p.gender))).toEqual(new Set(GENDERS));
    expect(profiles.some((p) => p.dominatrix)).toBe(true);
    const verified = profiles.filter((p) => p.verification_status === 'verified');
    expect(verified.length).toBeGreaterThan(10);
    expect(verified.every((p) => p.verified_at)).toBe(true);
    expect(profiles.filter((p) => p.listed).length).toBeGreaterThan(100);

    for (const p of profiles) {
      expect(p.email).toBe(`${p.username}@example.test`);
      const age = (Date.now() - new Date(p.date_of_birth).getTime()) / (365.25 * 86_400_000);
      expect(age).toBeGreaterThanOrEqual(21);
      expect(age).toBeLessThan(46);
      expect(p.listed).toBe(
        isListed({ complete: p.complete, adStatus: p.ad_status, flagged: p.flagged, accountStatus: p.status }),
      );
      expect(p.search_text).toBe(
        buildSearchText({
          screenName: p.screen_name,
          heading: p.heading,
          cityName: p.city_name,
          place: p.place,
          services: p.services,
        }),
      );
      expect(p.services.every((s) => (SERVICES as readonly string[]).includes(s))).toBe(true);
      // A number the Phone field accepts, kept as it keeps one (E.164), in the profile's country.
      if (p.phone)
        expect(checkPhone(p.phone), p.phone).toMatchObject({ ok: true, e164: p.phone, country: p.country_code });
      if (p.about) {
        const words = p.about.split(/\s+/).length;
        expect(words).toBeGreaterThanOrEqual(60);
        expect(words).toBeLessThanOrEqual(150);
      }
      // Every profile has its own avatar file.
      expect(p.avatar_user).toBe(p.user_id);
      expect(p.avatar_key).toMatch(new RegExp(`^u/${p.user_id}/[a-f0-9]+\\.webp$`));
      expect(fs.existsSync(path.join(mediaDir, 'public', p.avatar_key!))).toBe(true);
    }
    expect(new Set(profiles.map((p) => p.screen_name.toLowerCase())).size).toBe(120);

    // A third show their age (the demo's age filter finds someone), the date they registered.
    const showing = profiles.filter((p) => p.shown_birth_date !== null);
    expect(showing.length).toBeGreaterThan(30);
    expect(showing.length).toBeLessThan(50);
    for (const p of showing) expect(p.shown_birth_date).toBe(p.date_of_birth);

    // Every profile is listed at home; some are on tour elsewhere.
    const homes = await q<{ profile_id: number; city_id: number; country_ok: boolean }>(sql`
      select l.profile_id, l.city_id, l.country_code = c.country_code as country_ok
      from listings l join cities c on c.id = l.city_id join profiles p on p.user_id = l.profile_id
      where l.kind = 'home' and p.city_id = l.city_id`);
    expect(new Set(homes.map((h) => h.profile_id)).size).toBe(120);
    expect(homes.every((h) => h.country_ok)).toBe(true);
    const tours = await q<{
      tour_from: string;
      tour_until: string;
      expires_at: string;
      paid_until: string;
      tour_starts_at: string;
      timezone: string;
      city_id: number;
      home: number;
    }>(sql`
      select l.tour_from::text, l.tour_until::text, l.expires_at, l.paid_until, l.tour_starts_at, c.timezone,
        l.city_id, p.city_id as home
      from listings l join profiles p on p.user_id = l.profile_id join cities c on c.id = l.city_id
      where l.kind = 'additional'`);
    expect(tours.length).toBeGreaterThan(0);
    const midnight = (day: string, zone: string) => DateTime.fromISO(day, { zone }).toMillis();
    for (const t of tours) {
      expect(t.city_id).not.toBe(t.home);
      expect(t.tour_from <= t.tour_until).toBe(true);
      expect(new Date(t.expires_at).getTime()).toBeGreaterThan(Date.now());
      // Decision 0403: a tour starts at its first midnight in the city and its listing ends with its last
      // day, inside the 30 paid days.
      expect(new Date(t.tour_starts_at).getTime()).toBe(midnight(t.tour_from, t.timezone));
      const lastDayEnds = DateTime.fromISO(t.tour_until, { zone: t.timezone }).plus({ days: 1 }).toMillis();
      expect(new Date(t.expires_at).getTime()).toBe(lastDayEnds);
      expect(lastDayEnds).toBeLessThanOrEqual(new Date(t.paid_until).getTime());
    }

    const [spread] = await q<{ countries: number; cities: number; oldest: string; newest: string }>(sql`
      select count(distinct country_code)::int as countries, count(distinct city_id)::int as cities,
             min(bumped_at) as oldest, max(bumped_at) as newest
      from listings where kind = 'home'`);
    expect(spread.countries).toBeGreaterThanOrEqual(15);
    expect(spread.cities).toBeGreaterThanOrEqual(60);
    expect(Date.now() - new Date(spread.oldest).getTime()).toBeLessThanOrEqual(31 * 86_400_000);
    const slugs = await q<{ slug: string }>(
      sql`select distinct c.slug from listings l join cities c on c.id = l.city_id`,
    );
    expect(slugs.every((s) => SLUG_PATTERN.test(s.slug))).toBe(true);

    // Gallery pictures are each user's own files too, in order.
    const gallery = await q<{ user_id: number; n: number; positions: number[] }>(sql`
      select user_id, count(*)::int as n, array_agg(position order by position) as positions
      from media where type = 'gallery' group by user_id`);
    expect(gallery.length).toBe(120);
    for (const g of gallery) {
      expect(g.n).toBeGreaterThanOrEqual(2);
      expect(g.n).toBeLessThanOrEqual(4);
      expect(g.positions).toEqual([...Array(g.n).keys()]);
    }
    const keys = await q<{ storage_key: string }>(sql`select storage_key from media`);
    expect(new Set(keys.map((k) => k.storage_key)).size).toBe(keys.length);
    expect(keys.every((k) => fs.existsSync(path.join(mediaDir, 'public', k.storage_key)))).toBe(true);

    const productRows = await q<{ code: string; price: number; duration_days: number | null }>(
      sql`select code, price, duration_days from products order by code`,
    );
    expect(productRows).toEqual([
      { code: 'additional_location', price: 1500, duration_days: 30 },
      { code: 'standard_topup', price: 500, duration_days: null },
    ]);
    const ledger = await q<{ kind: string }>(sql`select kind from ledger_accounts where user_id is null order by kind`);
    expect(ledger.map((l) => l.kind)).toEqual(['adjustments', 'cash', 'revenue']);

    // A second run (say, the next server start) changes nothing, and leaves the search words to their
    // periodic task (rebuilding them and analysing every table took seconds of each start at 50,000
    // profiles): a word the rebuild would drop is still there.
    await database.db.execute(sql`insert into search_words (word, profiles) values ('zzseedprobe', 1)`);
    const again = await seedDemo(ctx, { profiles: 120 });
    const probe = await q<{ word: string }>(sql`select word from search_words where word = 'zzseedprobe'`);
    expect(probe).toHaveLength(1);
    await database.db.execute(sql`delete from search_words where word = 'zzseedprobe'`);
    expect(again).toMatchObject({ skipped: true, profiles: 0, admin: null });
    const [after] = await q<{
      accounts: number;
      profiles: number;
      listings: number;
      media: number;
      products: number;
      ledger: number;
    }>(sql`
      select (select count(*) from accounts)::int as accounts, (select count(*) from profiles)::int as profiles,
             (select count(*) from listings)::int as listings, (select count(*) from media)::int as media,
             (select count(*) from products)::int as products, (select count(*) from ledger_accounts)::int as ledger`);
    expect(after).toMatchObject({ accounts: 121, profiles: 121, products: 2, ledger: 3 });
    expect(after.listings).toBe(homes.length + tours.length);

    // Deleting one user's picture leaves everyone else's in place.
    const [one, other] = profiles;
    await store.delete('public', one.avatar_key!);
    expect(fs.existsSync(path.join(mediaDir, 'public', other.avatar_key!))).toBe(true);
  });

  it('adds more with force, keeping names unique', async () => {
    const result = await seedDemo({ db: database.db, media: store }, { profiles: 30, force: true, gallery: false });
    expect(result).toMatchObject({ skipped: false, profiles: 30, media: 30, admin: null });
    const [counts] = await q<{ n: number; names: number; users: number }>(sql`
      select count(*)::int as n, count(distinct lower(screen_name))::int as names,
             (select count(distinct lower(username)) from accounts)::int as users
      from profiles where screen_name is not null`);
    expect(counts).toEqual({ n: 150, names: 150, users: 151 });
  });
});
