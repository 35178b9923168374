// `npm run migrate:embedded -- --from ./data`
// Moves an embedded installation (the PGlite database and the media under DATA_DIR) into the storage
// this environment names: DATABASE_URL (PostgreSQL, required) and the media store (S3_BUCKET and the
// other S3_* variables, else DATA_DIR/media). Run it with the server stopped, with the environment the
// new installation will run with; the target database must have no accounts yet (docs/decisions/1001).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openMediaStore } from '../src/server/bootstrap';
import { DatabaseLockedError, openDatabase } from '../src/server/db/client';
import { moveInstallation } from '../src/server/db/move-installation';
import { loadEnv } from '../src/server/env';
import { LocalMediaStore } from '../src/server/lib/media-store';

const USAGE = 'Usage: DATABASE_URL=postgres://... [S3_*=...] npm run migrate:embedded -- --from DATA_DIR';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: { from: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  }).values;
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!args.from) fail(`--from is required.\n${USAGE}`);
const from = path.resolve(args.from);
// DATABASE_URL wants SESSION_SECRET (issue 24, item 2); the move itself signs nothing, so without one it
// goes on with the embedded installation's secret and says at the end what to set.
const secretFile = path.join(from, 'secret.key');
const embeddedSecret = fs.existsSync(secretFile) ? fs.readFileSync(secretFile, 'utf8').trim() : undefined;
let env;
try {
  env = loadEnv({ ...(embeddedSecret ? { SESSION_SECRET: embeddedSecret } : {}), ...process.env });
} catch (err) {
  fail((err as Error).message);
}
if (!env.DATABASE_URL) fail(`DATABASE_URL is required: the PostgreSQL database to move into.\n${USAGE}`);

let source;
try {
  source = await openDatabase({ pgliteDir: path.join(from, 'db') });
} catch (err) {
  if (err instanceof DatabaseLockedError) fail(err.message);
  throw err;
}
const target = await openDatabase({ url: env.DATABASE_URL });
const media = openMediaStore(env);
try {
  const result = await moveInstallation(
    { db: source.db, media: new LocalMediaStore(path.join(from, 'media')) },
    { db: target.db, media },
    (m) => console.log(`  ${m}`),
  );
  const rows = Object.values(result.rows).reduce((a, b) => a + b, 0);
  console.log(
    `Moved ${rows} rows and ${result.files.public + result.files.private} files ` +
      `(media: ${env.S3_BUCKET ? `S3 bucket ${env.S3_BUCKET}` : path.join(env.dataDir, 'media')}).`,
  );
  if (!process.env.SESSION_SECRET)
    console.log(
      `Set SESSION_SECRET (required with DATABASE_URL) to the contents of ${secretFile} to keep mailed links and PINs valid.`,
    );
} catch (err) {
  fail(`Nothing usable was moved: ${(err as Error).message}`);
} finally {
  media.close?.();
  await source.close();
  await target.close();
}
