// Starts the server: environment, database with migrations, demo data on first start, HTTP.
import { buildApp } from './app';
import { openRuntime } from './bootstrap';
import { DatabaseLockedError } from './db/client';
import { loadEnv } from './env';

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
  const app = await buildApp(runtime.ctx, { logger: true, serveClient: true });

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: env.PORT, host: env.HOST });
  const port = (app.server.address() as { port: number }).port;
  console.log(`\n  Directory running at http://localhost:${port}  (database: ${runtime.ctx.dbKind}, data: ${env.dataDir})\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
