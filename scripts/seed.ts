// `npm run seed -- [--profiles 600] [--data-dir ./data] [--force] [--seed N] [--no-gallery]`
// Imports the geography when missing, then demo advertisers when there are no profiles yet
// (--force adds more anyway). Uses DATABASE_URL when set, else the embedded database under
// <DATA_DIR>/db; pictures go to the media store (S3_BUCKET, else <DATA_DIR>/media). Stop the server first when it uses the same PGlite.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openMediaStore } from '../src/server/bootstrap';
import { DatabaseLockedError, openDatabase } from '../src/server/db/client';
import { loadEnv } from '../src/server/env';
import { importGeo } from '../src/server/modules/geo/geo-import';
import { seedDemo } from '../src/server/modules/seed/seed';

const USAGE = 'Usage: npm run seed -- [--profiles N] [--data-dir DIR] [--force] [--seed N] [--no-gallery]';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: {
      profiles: { type: 'string' },
      'data-dir': { type: 'string' },
      force: { type: 'boolean', default: false },
      seed: { type: 'string' },
      'no-gallery': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
  }).values;
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

const env = loadEnv({ ...process.env, ...(args['data-dir'] ? { DATA_DIR: args['data-dir'] } : {}) });
const profiles = args.profiles === undefined ? env.SEED_PROFILES : Number(args.profiles);
if (!Number.isInteger(profiles) || profiles < 0) fail(`--profiles must be a whole number >= 0.\n${USAGE}`);
const seed = args.seed === undefined ? undefined : Number(args.seed);
if (seed !== undefined && !Number.isInteger(seed)) fail(`--seed must be a whole number.\n${USAGE}`);

let database;
try {
  database = await openDatabase({ url: env.DATABASE_URL, pgliteDir: path.join(env.dataDir, 'db') });
} catch (err) {
  if (err instanceof DatabaseLockedError) fail(err.message);
  throw err;
}
const where = env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${path.join(env.dataDir, 'db')}`;
const media = openMediaStore(env);
console.log(
  `Database: ${where}; media: ${env.S3_BUCKET ? `S3 bucket ${env.S3_BUCKET}` : path.join(env.dataDir, 'media')}`,
);

try {
  const geo = await importGeo(database.db);
  console.log(
    geo.skipped
      ? 'Geography already imported.'
      : `Imported ${geo.countries} countries and ${geo.cities} cities in ${(geo.ms / 1000).toFixed(1)} s.`,
  );

  const result = await seedDemo(
    { db: database.db, media },
    {
      profiles,
      force: args.force,
      seed,
      gallery: args['no-gallery'] ? false : undefined,
      log: (message) => console.log(`  ${message}`),
    },
  );
  if (result.skipped) {
    console.log('The database already has profiles: nothing seeded (use --force to add more).');
  } else {
    console.log(
      `Seeded ${result.profiles} profiles, ${result.listings} listings and ${result.media} pictures in ${(result.ms / 1000).toFixed(1)} s.`,
    );
  }
  if (result.admin) {
    console.log('\n  Admin account created (shown once, not stored in clear anywhere):');
    console.log(`    email:    ${result.admin.email}`);
    console.log(`    username: ${result.admin.username}`);
    console.log(`    password: ${result.admin.password}\n`);
  }
} finally {
  await database.close();
}
