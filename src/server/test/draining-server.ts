// The real server as a child process with main.ts's drain (shutdown.ts), for shutdown.test.ts, which
// signals it under load: the app and the worker on DATA_DIR or DATABASE_URL, like server-process.ts (no
// places, no demo data, no built web client). Kept-alive connections wait 60 s for their next request
// here, so one the drain leaves open would still be open when the test looks. Prints `listening <port>`.
import { buildApp } from '../app';
import { openRuntime } from '../bootstrap';
import { loadEnv } from '../env';
import { startWorker } from '../lib/jobs';
import { drainOnSignals } from '../shutdown';
import { jobHandlers, periodicTasks } from '../tasks';

const env = loadEnv();
const runtime = await openRuntime(env);
const { ctx } = runtime;
const app = await buildApp(ctx, { httpLimits: { keepAliveMs: 60_000, idleMs: 60_000 } });
const worker = startWorker(ctx, {
  handlers: jobHandlers,
  tasks: periodicTasks,
  log: (msg, err) => console.error(msg, err),
});
drainOnSignals({
  app,
  delaySeconds: env.SHUTDOWN_DELAY,
  timeoutSeconds: env.SHUTDOWN_TIMEOUT,
  lifecycle: ctx.lifecycle!,
  stopWorker: () => worker.stop(),
  workerSettled: (ms) => worker.settled(ms),
  closeRuntime: () => runtime.close(),
  log: app.log,
});
await app.listen({ port: env.PORT, host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
