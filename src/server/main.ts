// Starts the server: environment, database with migrations, demo data on first start, background
// worker, HTTP.
import { buildApp } from './app';
import { openRuntime } from './bootstrap';
import { DatabaseLockedError } from './db/client';
import { loadEnv } from './env';
import { startWorker } from './lib/jobs';
import { importCityNames } from './modules/geo/city-names';
import { importGeo } from './modules/geo/geo-import';
import { seedDemo } from './modules/seed/seed';
import { jobHandlers, periodicTasks } from './tasks';

async function main() {
  const env = loadEnv();
  let runtime;
  try {
    runtime = await openRuntime(env);
  } catch (err) {
    if (err instanceof DatabaseLockedError) {
      console.error(`\n${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const { ctx } = runtime;

  // First start of an empty database: places, then fictional demo advertisers and the first admin.
  const log = (msg: string) => console.log(`  ${msg}`);
  await importGeo(ctx.db, { log });
  await importCityNames(ctx.db, { file: env.GEONAMES_ALTERNATE_NAMES, log });
  const seeded = await seedDemo(ctx, { profiles: env.SEED_PROFILES, log });
  if (!seeded.skipped && seeded.profiles) {
    console.log(`  Seeded ${seeded.profiles} demo profiles in ${(seeded.ms / 1000).toFixed(1)} s`);
  }

  const app = await buildApp(ctx, { logger: true, serveClient: true });
  const stopWorker = startWorker(ctx, {
    handlers: jobHandlers,
    tasks: periodicTasks,
    log: (msg, err) => app.log.error({ err }, msg),
  });

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    stopWorker();
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: env.PORT, host: env.HOST });
  const port = (app.server.address() as { port: number }).port;
  console.log(`\n  Directory running at http://localhost:${port}  (database: ${ctx.dbKind}, data: ${env.dataDir})`);
  if (seeded.admin) {
    console.log('\n  First start: an admin account was created. Sign in with');
    console.log(`    login:    ${seeded.admin.username}  (or ${seeded.admin.email})`);
    console.log(`    password: ${seeded.admin.password}`);
    console.log('  It is shown only this once; keep it somewhere safe.\n');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
