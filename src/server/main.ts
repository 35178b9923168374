// Starts the server: environment, database with migrations, demo data on first start, background
// worker, HTTP. SIGTERM (or SIGINT) drains it: readiness answers 503, the worker stops and hands its
// running job back, requests in flight get SHUTDOWN_TIMEOUT seconds, then the process exits 0.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { openRuntime } from './bootstrap';
import { DatabaseLockedError } from './db/client';
import { InvalidEnvError, loadEnv } from './env';
import { startWorker } from './lib/jobs';
import type { RedisLog } from './lib/redis';
import { importCityNames } from './modules/geo/city-names';
import { importGeo } from './modules/geo/geo-import';
import { seedDemo } from './modules/seed/seed';
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

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      // A second signal: the operator does not want to wait for the drain.
      server.log.warn({ signal }, 'stopping now, without waiting for the drain');
      process.exit(1);
    }
    stopping = true;
    const began = performance.now();
    server.log.info({ signal, timeoutSeconds: env.SHUTDOWN_TIMEOUT }, 'shutting down');
    ctx.lifecycle!.draining = true;
    const force = setTimeout(() => {
      server.log.warn('requests still open after SHUTDOWN_TIMEOUT: closing their connections');
      server.server.closeAllConnections();
    }, env.SHUTDOWN_TIMEOUT * 1000);
    force.unref();
    const [settled] = await Promise.all([
      worker
        .stop()
        .catch((err: unknown) => server.log.error({ err }, 'handing the running job back failed'))
        // The handed-back job's handler has seen its signal (the video job kills ffmpeg and removes its
        // own files); it gets the same time as the requests to return.
        .then(() => worker.settled(env.SHUTDOWN_TIMEOUT * 1000)),
      server.close(),
    ]);
    clearTimeout(force);
    // A handler that is still running past the timeout: on PostgreSQL its connections end with the
    // process; the embedded database is always closed, so its files are left whole.
    if (settled || ctx.dbKind === 'pglite') await runtime.close();
    server.log.info({ ms: Math.round(performance.now() - began) }, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await server.listen({ port: env.PORT, host: env.HOST });
  const port = (server.server.address() as { port: number }).port;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(
    `\n  Directory running at http://localhost:${port}  (database: ${ctx.dbKind}, data: ${env.dataDir}, started in ${seconds} s)`,
  );
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
