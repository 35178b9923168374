// Starts the server: environment, database with migrations, demo data on first start, background
// worker, HTTP. SIGTERM (or SIGINT) drains it (shutdown.ts): readiness answers 503 for SHUTDOWN_DELAY
// seconds while requests are still served, the worker hands its running job back, then the listener
// closes, requests in flight get SHUTDOWN_TIMEOUT seconds, and the process exits 0.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { openRuntime } from './bootstrap';
import { DatabaseLockedError } from './db/client';
import { InvalidEnvError, loadEnv } from './env';
import { startWorker } from './lib/jobs';
import type { RedisLog } from './lib/redis';
import { importCityNames } from './modules/geo/city-names';
import { importGeo } from './modules/geo/geo-import';
import { removeOrphanedConversions } from './modules/media/video-pipeline';
import { seedDemo } from './modules/seed/seed';
import { drainOnSignals } from './shutdown';
import { liveSummary, whatIsLive } from './startup-summary';
import { jobHandlers, periodicTasks } from './tasks';

/** Errors whose message tells the operator what to do: printed as they are, without a stack. */
const toldAsIs = (err: unknown) => err instanceof DatabaseLockedError || err instanceof InvalidEnvError;

async function main() {
  const startedAt = performance.now();
  const env = loadEnv();
  // Redis may report before the app's logger exists.
  const started: { app?: FastifyInstance } = {};
  const redisLog: RedisLog = {
    warn: (m) => (started.app ? started.app.log.warn(m) : console.warn(m)),
    info: (m) => (started.app ? started.app.log.info(m) : console.info(m)),
  };
  const runtime = await openRuntime(env, { redisLog });
  const { ctx } = runtime;

  // First start of an empty database: places, then fictional demo advertisers and the first admin.
  const log = (msg: string) => console.log(`  ${msg}`);
  await importGeo(ctx.db, { log });
  await importCityNames(ctx.db, { file: env.GEONAMES_ALTERNATE_NAMES, log });
  const seeded = await seedDemo(ctx, { profiles: env.SEED_PROFILES, log });
  if (!seeded.skipped && seeded.profiles) {
    console.log(`  Seeded ${seeded.profiles} demo profiles in ${(seeded.ms / 1000).toFixed(1)} s`);
  }

  const server = await buildApp(ctx, { logger: true, serveClient: true });
  started.app = server;
  const worker = startWorker(ctx, {
    handlers: jobHandlers,
    tasks: periodicTasks,
    log: (msg, err) => server.log.error({ err }, msg),
    onTaskRun: (task, ms) => server.log.info({ task, ms }, 'periodic task ran'),
  });

  // SIGTERM or SIGINT: readiness 503 for SHUTDOWN_DELAY seconds while requests are still served, then
  // the listener closes and requests in flight get SHUTDOWN_TIMEOUT seconds (shutdown.ts, decision 1011).
  drainOnSignals({
    app: server,
    delaySeconds: env.SHUTDOWN_DELAY,
    timeoutSeconds: env.SHUTDOWN_TIMEOUT,
    lifecycle: ctx.lifecycle!,
    stopWorker: () => worker.stop(),
    workerSettled: (ms) => worker.settled(ms),
    // A handler still running past the timeout keeps the PostgreSQL pool until the process ends.
    closeRuntime: async (settled) => {
      if (settled || ctx.dbKind === 'pglite') await runtime.close();
    },
    log: server.log,
  });
  // Conversions of an instance that was killed (SIGKILL, a crash) left their temporary files.
  void removeOrphanedConversions().then(
    (removed) => removed.length && server.log.info({ removed }, 'removed the temporary files of dead conversions'),
    (err: unknown) => server.log.warn({ err }, 'could not look for dead conversions'),
  );

  await server.listen({ port: env.PORT, host: env.HOST });
  const port = (server.server.address() as { port: number }).port;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(
    `\n  Directory running at http://localhost:${port}  (database: ${ctx.dbKind}, data: ${env.dataDir}, started in ${seconds} s)`,
  );
  // What is live, and in production a warning for every stand-in (startup-summary.ts).
  const live = liveSummary(whatIsLive(ctx, seeded.skipped ? 0 : seeded.profiles), env.NODE_ENV === 'production');
  server.log.info({ live: live.info }, 'what this instance runs on');
  for (const line of live.info) console.log(`    ${line}`);
  for (const warning of live.warnings) server.log.warn(warning);
  if (seeded.admin) {
    console.log('\n  First start: an admin account was created. Sign in with');
    console.log(`    login:    ${seeded.admin.username}  (or ${seeded.admin.email})`);
    console.log(`    password: ${seeded.admin.password}`);
    console.log('  It is shown only this once; keep it somewhere safe.\n');
  }
}

main().catch((err) => {
  if (toldAsIs(err)) console.error(`\n${(err as Error).message}\n`);
  else console.error(err);
  process.exit(1);
});
