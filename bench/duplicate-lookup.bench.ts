// Issue 23 item 16: what the store-time duplicate check costs at 500,000 profiles (docs/decisions/0507).
// Fills a scratch PostgreSQL (and an embedded PGlite at a tenth of the size) with `--profiles` x 6 media
// rows (an avatar and five gallery pictures on average) carrying uniformly random current-version hashes
// with their bands, then times media.findSimilarImages at the production threshold (8 bits: the new
// picture's hash and its mirror's, 4 x 137 band values each) for random pictures and for pictures with a
// planted copy. Uniform hashes are the friendly case for the bands; real photos cluster more.
//
//   npx tsx bench/duplicate-lookup.bench.ts [--profiles 500000] [--lookups 300] [--backends postgres,pglite]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openRuntime } from '../src/server/bootstrap';
import { loadEnv } from '../src/server/env';
import { DUPLICATE_MAX_DISTANCE } from '../src/server/modules/admin/duplicates';
import { findSimilarImages } from '../src/server/modules/media/media.service';
import { PICTURE_HASH_VERSION } from '../src/server/modules/media/picture-hash';
import { createAdvertiser, seedGeo } from '../src/server/test/factories';
import { createScratchDatabase } from '../src/server/test/helpers';

const { values: args } = parseArgs({
  options: {
    profiles: { type: 'string', default: '500000' },
    lookups: { type: 'string', default: '300' },
    backends: { type: 'string', default: 'postgres,pglite' },
  },
});
const PROFILES = Number(args.profiles);
const LOOKUPS = Number(args.lookups);
const PICTURES_PER_PROFILE = 6;
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const random64 = () => crypto.randomBytes(8).readBigInt64BE() & 0x7fffffffffffffffn;
/** `hash` with `bits` distinct random bits flipped. */
function flip(hash: bigint, bits: number): bigint {
  const positions = new Set<number>();
  while (positions.size < bits) positions.add(crypto.randomInt(63));
  let h = hash;
  for (const p of positions) h ^= 1n << BigInt(p);
  return h;
}
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function run(backend: 'postgres' | 'pglite', profiles: number) {
  const rows = profiles * PICTURES_PER_PROFILE;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'duplicate-lookup-'));
  const scratch = backend === 'postgres' ? await createScratchDatabase(PG_ADMIN, 'duplicate_lookup', undefined) : null;
  const runtime = await openRuntime(
    loadEnv({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SESSION_SECRET: crypto.randomBytes(16).toString('hex'),
      LOG_LEVEL: 'warn',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    }),
  );
  const { ctx } = runtime;
  try {
    await seedGeo(ctx);
    const owner = (await createAdvertiser(ctx)).account.id;
    const started = Date.now();
    // Random 63-bit hashes and their bands, written by the database itself (millions of rows).
    const chunk = 250_000;
    for (let from = 0; from < rows; from += chunk) {
      const n = Math.min(chunk, rows - from);
      await ctx.db.execute(sql`
        insert into media (user_id, type, status, position, storage_key, mime, phash, phash_mirror, phash_version,
                           phash_b0, phash_b1, phash_b2, phash_b3, created_at)
        select ${owner}, case when g % ${PICTURES_PER_PROFILE} = 0 then 'avatar' else 'gallery' end, 'approved', 0,
               'bench/' || g, 'image/jpeg', h, h # 1234567, ${PICTURE_HASH_VERSION},
               ((h >> 48) & 65535)::int, ((h >> 32) & 65535)::int, ((h >> 16) & 65535)::int, (h & 65535)::int, now()
        from (select g, (floor(random() * 4294967296)::bigint << 31) # floor(random() * 2147483648)::bigint as h
              from generate_series(${from}::int, ${from + n - 1}::int) g) s`);
    }
    // What autovacuum does within minutes of a bulk write: the visibility map the index-only scans need.
    await ctx.db.execute(sql`vacuum analyze media`);
    const filled = (Date.now() - started) / 1000;

    // Pictures with a planted copy 0-8 bits away, and pictures with none.
    const planted: bigint[] = [];
    for (let i = 0; i < LOOKUPS / 2; i++) {
      const h = random64();
      planted.push(h);
      const c = flip(h, i % (DUPLICATE_MAX_DISTANCE + 1));
      const u = BigInt.asUintN(64, c);
      await ctx.db.execute(sql`
        insert into media (user_id, type, status, storage_key, mime, phash, phash_version, phash_b0, phash_b1, phash_b2, phash_b3)
        values (${owner}, 'gallery', 'approved', 'bench/planted', 'image/jpeg', ${c.toString()}::bigint, ${PICTURE_HASH_VERSION},
                ${Number(u >> 48n)}, ${Number((u >> 32n) & 0xffffn)}, ${Number((u >> 16n) & 0xffffn)}, ${Number(u & 0xffffn)})`);
    }
    const times = { planted: [] as number[], fresh: [] as number[] };
    let found = 0;
    const warm = await findSimilarImages(ctx, { hash: random64(), mirror: random64() }, DUPLICATE_MAX_DISTANCE);
    void warm;
    for (let i = 0; i < LOOKUPS; i++) {
      const isPlanted = i % 2 === 0;
      const hash = isPlanted ? planted[i / 2] : random64();
      const t0 = performance.now();
      const similar = await findSimilarImages(ctx, { hash, mirror: random64() }, DUPLICATE_MAX_DISTANCE);
      (isPlanted ? times.planted : times.fresh).push(performance.now() - t0);
      if (isPlanted && similar.length) found++;
    }
    const all = [...times.planted, ...times.fresh];
    return {
      backend,
      profiles,
      rows: rows + planted.length,
      filled,
      p50: percentile(all, 0.5),
      p99: percentile(all, 0.99),
      max: Math.max(...all),
      found: `${found} of ${planted.length}`,
    };
  } finally {
    await runtime.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [];
for (const backend of args.backends.split(',') as Array<'postgres' | 'pglite'>) {
  // PGlite (the embedded default, one machine) at a tenth: an installation of 500,000 runs on PostgreSQL.
  const profiles = backend === 'pglite' ? Math.round(PROFILES / 10) : PROFILES;
  results.push(await run(backend, profiles));
  console.error(JSON.stringify(results.at(-1)));
}
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
console.log('| backend | profiles | media rows | filled in | lookup p50 | p99 | max | planted copies found |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results)
  console.log(
    `| ${r.backend} | ${r.profiles.toLocaleString('en')} | ${r.rows.toLocaleString('en')} | ${r.filled.toFixed(0)} s | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms | ${r.found} |`,
  );
