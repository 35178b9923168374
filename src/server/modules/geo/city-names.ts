// City names in the reader's language (issue 13, docs/decisions/0604): GeoNames' alternate names of the
// directory's cities, imported at start into city_names from GeoNames' own file format
// (alternateNamesV2.txt: alternateNameId, geonameid, isolanguage, alternate name, isPreferredName,
// isShortName, isColloquial, isHistoric, from, to; tab-separated). Two sources: the packaged file next to
// this one (the well-known German and Spanish names of cities the directory has), and the file named by
// GEONAMES_ALTERNATE_NAMES when an operator downloads GeoNames' own. Slugs and URLs stay English.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Language } from '#shared/constants.ts';
import { queryRows, type Db } from '../../db/client';
import { cityNames } from '../../db/schema';
import { bulkInsert } from '../../db/bulk-insert';

export const PACKAGED_NAMES_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'city-names.alternateNamesV2.txt',
);

/** Languages whose names are kept: the site's text languages other than English (0604). */
export const NAME_LANGUAGES = ['de', 'es', 'pt'] as const;
export type NameLanguage = (typeof NAME_LANGUAGES)[number];

/** The language of the city names a page in `lang` shows; null: the English names as stored. */
export function nameLanguage(lang: Language | string): NameLanguage | null {
  return (NAME_LANGUAGES as readonly string[]).includes(lang) ? (lang as NameLanguage) : null;
}

const NAMES_LOCK = 727_003;

interface Candidate {
  name: string;
  rank: number;
}

/**
 * Rank of one alternate name: preferred names first, then short ones; colloquial and historic names,
 * and names with a validity period (from/to: a former or future name), are never taken.
 */
function rankOf(cols: string[]): number | null {
  const [, , , name, preferred, short, colloquial, historic, from, to] = cols;
  if (!name || colloquial === '1' || historic === '1' || from || to) return null;
  return (preferred === '1' ? 4 : 0) + (short === '1' ? 1 : 0);
}

/** The packaged names count as preferred ones: a preferred name of GeoNames' own file replaces them. */
const PACKAGED_RANK = 3;

/**
 * Reads one file of GeoNames' format into `chosen` (city id -> language -> best name so far). Only the
 * directory's cities (`english`: id -> English name) and NAME_LANGUAGES are kept; the full GeoNames file
 * (16 million lines) is streamed, never held in memory.
 */
export async function readAlternateNames(
  file: string,
  english: Map<number, string>,
  chosen: Map<number, Map<NameLanguage, Candidate>>,
  rankOverride?: number,
): Promise<number> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let taken = 0;
  for await (const line of lines) {
    // The language column first: almost every line of the full file is skipped here.
    const t1 = line.indexOf('\t');
    const t2 = line.indexOf('\t', t1 + 1);
    const t3 = line.indexOf('\t', t2 + 1);
    if (t3 < 0) continue;
    const lang = line.slice(t2 + 1, t3) as NameLanguage;
    if (!NAME_LANGUAGES.includes(lang)) continue;
    const id = Number(line.slice(t1 + 1, t2));
    const own = english.get(id);
    if (own === undefined) continue;
    const cols = line.split('\t');
    const rank = rankOf(cols);
    if (rank === null) continue;
    const name = cols[3].trim();
    if (!name || name.length > 200) continue;
    const effective = rankOverride ?? rank;
    let byLang = chosen.get(id);
    if (!byLang) chosen.set(id, (byLang = new Map()));
    const current = byLang.get(lang);
    // Within a file the first of equal rank stays (GeoNames lists the common name first).
    if (current && current.rank >= effective) continue;
    byLang.set(lang, { name, rank: effective });
    taken++;
  }
  return taken;
}

async function fileSignature(file: string | undefined): Promise<string> {
  const packaged = crypto.createHash('sha256').update(fs.readFileSync(PACKAGED_NAMES_FILE)).digest('hex');
  if (!file) return `packaged:${packaged}`;
  // The operator's file is large: its path, size and modification time stand for its content.
  const stat = fs.statSync(file);
  return `packaged:${packaged}|geonames:${path.resolve(file)}:${stat.size}:${Math.round(stat.mtimeMs)}`;
}

export interface CityNamesResult {
  skipped: boolean;
  names: number;
  ms: number;
}

/**
 * Fills city_names from the packaged file and `file` (GEONAMES_ALTERNATE_NAMES). Idempotent: a start
 * with the same files (the signature kept in city_names_source) reads nothing; otherwise the table is
 * replaced in one transaction. Runs after the geography import (it needs the cities).
 */
export async function importCityNames(
  db: Db,
  opts: { file?: string; log?: (msg: string) => void } = {},
): Promise<CityNamesResult> {
  const started = performance.now();
  if (opts.file && !fs.existsSync(opts.file)) {
    throw new Error(`GEONAMES_ALTERNATE_NAMES: ${opts.file} does not exist.`);
  }
  const signature = await fileSignature(opts.file);
  const current = async (q: Pick<Db, 'execute'>) =>
    (await queryRows<{ signature: string }>(q as Db, sql`select signature from city_names_source`))[0]?.signature;
  if ((await current(db)) === signature)
    return { skipped: true, names: 0, ms: Math.round(performance.now() - started) };

  const english = new Map(
    (await queryRows<{ id: number; name: string }>(db, sql`select id, name from cities`)).map((c) => [
      Number(c.id),
      c.name,
    ]),
  );
  const chosen = new Map<number, Map<NameLanguage, Candidate>>();
  await readAlternateNames(PACKAGED_NAMES_FILE, english, chosen, PACKAGED_RANK);
  if (opts.file) await readAlternateNames(opts.file, english, chosen);
  const rows: Array<{ cityId: number; lang: string; name: string }> = [];
  for (const [cityId, byLang] of chosen) {
    for (const [lang, c] of byLang) if (c.name !== english.get(cityId)) rows.push({ cityId, lang, name: c.name });
  }

  const imported = await db.transaction(async (tx) => {
    // Several instances starting at once: one imports, the others find the same signature.
    await tx.execute(sql`select pg_advisory_xact_lock(${NAMES_LOCK})`);
    if ((await current(tx)) === signature) return false;
    await tx.execute(sql`delete from city_names`);
    await bulkInsert(tx, cityNames, rows, 5000);
    await tx.execute(sql`insert into city_names_source (id, signature) values (true, ${signature})
      on conflict (id) do update set signature = excluded.signature`);
    return true;
  });
  const ms = Math.round(performance.now() - started);
  if (!imported) return { skipped: true, names: 0, ms };
  opts.log?.(`Imported ${rows.length} city names in other languages in ${ms} ms`);
  return { skipped: false, names: rows.length, ms };
}

// ---------------------------------------------------------------- reading

const ids = (values: Iterable<number>) => `{${[...new Set(values)].map((n) => Math.trunc(Number(n))).join(',')}}`;

/** Names of cities by id in `lang` (only those that differ from English), with each city's country. */
export async function namesOfCities(
  db: Db,
  cityIds: number[],
  lang: NameLanguage,
): Promise<Map<number, { name: string | null; countryCode: string }>> {
  if (!cityIds.length) return new Map();
  const rows = await queryRows<{ id: number; country_code: string; name: string | null }>(
    db,
    sql`select c.id, c.country_code, n.name from cities c
        left join city_names n on n.city_id = c.id and n.lang = ${lang}
        where c.id = any(${ids(cityIds)}::int[])`,
  );
  return new Map(rows.map((r) => [Number(r.id), { name: r.name, countryCode: r.country_code }]));
}

/** Listing id -> the name of its city in `lang`, for the listings whose city has one. */
export async function namesOfListings(db: Db, listingIds: number[], lang: NameLanguage): Promise<Map<number, string>> {
  if (!listingIds.length) return new Map();
  const rows = await queryRows<{ listing_id: number; name: string }>(
    db,
    sql`select l.id as listing_id, n.name from listings l
        join city_names n on n.city_id = l.city_id and n.lang = ${lang}
        where l.id = any(${ids(listingIds)}::int[])`,
  );
  return new Map(rows.map((r) => [Number(r.listing_id), r.name]));
}

/** City slug -> name in `lang`, for the cities of a country that have one. */
export async function namesInCountry(db: Db, countryCode: string, lang: NameLanguage): Promise<Map<string, string>> {
  const rows = await queryRows<{ slug: string; name: string }>(
    db,
    sql`select c.slug, n.name from cities c join city_names n on n.city_id = c.id and n.lang = ${lang}
        where c.country_code = ${countryCode}`,
  );
  return new Map(rows.map((r) => [r.slug, r.name]));
}

/** English name -> name in `lang` of the cities a profile is listed in (its tours name them in English). */
export async function namesOfProfileCities(db: Db, userId: number, lang: NameLanguage): Promise<Map<string, string>> {
  const rows = await queryRows<{ english: string; name: string }>(
    db,
    sql`select c.name as english, n.name from listings l join cities c on c.id = l.city_id
        join city_names n on n.city_id = c.id and n.lang = ${lang}
        where l.profile_id = ${userId}`,
  );
  return new Map(rows.map((r) => [r.english, r.name]));
}
