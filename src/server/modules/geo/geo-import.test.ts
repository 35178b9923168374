import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLUG_PATTERN } from '#shared/constants.ts';
import type { Database } from '../../db/client';
import { rowsOf } from '../../db/bulk-insert';
import { openTestDatabase } from '../../test/helpers';
import { importGeo, slugify } from './geo-import';

describe('slugify', () => {
  it('gives lowercase letters and hyphens', () => {
    expect(slugify('United Kingdom')).toBe('united-kingdom');
    expect(slugify('Zürich')).toBe('zurich');
    expect(slugify('Łódź')).toBe('lodz');
    expect(slugify('São Paulo')).toBe('sao-paulo');
    expect(slugify('St. Gallen')).toBe('st-gallen');
    expect(slugify('Saint John’s')).toBe('saint-johns');
    expect(slugify('  Frankfurt am Main (Hessen) 2 ')).toBe('frankfurt-am-main-hessen');
    expect(slugify('Straße')).toBe('strasse');
    expect(slugify('Бережани')).toBe('berezhani');
    expect(slugify('123')).toBe('');
  });
});

describe('importGeo', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase('geo_test');
  });
  afterAll(async () => {
    await database?.close();
  });

  it('imports countries and cities once', async () => {
    const first = await importGeo(database.db);
    expect(first.skipped).toBe(false);
    const { db } = database;
    const [counts] = rowsOf<{ countries: number; cities: number }>(
      await db.execute(
        sql`select (select count(*) from countries)::int as countries, (select count(*) from cities)::int as cities`,
      ),
    );
    expect(counts.countries).toBeGreaterThanOrEqual(200);
    expect(counts.cities).toBeGreaterThan(10_000);
    expect(first).toMatchObject({ countries: counts.countries, cities: counts.cities });

    const countries = rowsOf<{ code: string; slug: string; name: string }>(
      await db.execute(sql`select code, slug, name from countries`),
    );
    expect(countries.every((c) => SLUG_PATTERN.test(c.slug))).toBe(true);
    expect(new Set(countries.map((c) => c.slug)).size).toBe(countries.length);
    const bySlug = Object.fromEntries(countries.map((c) => [c.code, c.slug]));
    expect(bySlug).toMatchObject({ GB: 'united-kingdom', US: 'united-states', DE: 'germany', CZ: 'czech-republic' });

    const cities = rowsOf<{ country_code: string; slug: string; timezone: string }>(
      await db.execute(sql`select country_code, slug, timezone from cities`),
    );
    expect(cities.every((c) => SLUG_PATTERN.test(c.slug))).toBe(true);
    expect(cities.every((c) => /^[A-Za-z_]+\/[A-Za-z0-9_+\-/]+$|^Etc\//.test(c.timezone))).toBe(true);
    expect(new Set(cities.map((c) => `${c.country_code}/${c.slug}`)).size).toBe(cities.length);

    const london = rowsOf<{ slug: string; timezone: string }>(
      await db.execute(sql`select slug, timezone from cities where country_code = 'GB' and name = 'London'`),
    );
    expect(london).toEqual([{ slug: 'london', timezone: 'Europe/London' }]);
    // The capital keeps the plain slug; the namesake in Colombia is its own country's business.
    const madrid = rowsOf<{ slug: string; timezone: string }>(
      await db.execute(sql`select slug, timezone from cities where country_code = 'ES' and slug = 'madrid'`),
    );
    expect(madrid).toEqual([{ slug: 'madrid', timezone: 'Europe/Madrid' }]);

    const again = await importGeo(db);
    expect(again.skipped).toBe(true);
    const [n] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from countries`));
    expect(n.n).toBe(counts.countries);
  });
});
