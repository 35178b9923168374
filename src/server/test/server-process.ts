// The real server as a child process, for the tests that kill it and start it again (money crash
// recovery) and the money benchmark (bench/money.bench.ts, through scripts/app-server.ts): the app and the background worker with main.ts's task list, on DATA_DIR or DATABASE_URL from
// the environment. Unlike main.ts it imports no places, seeds nothing and serves no built web client (the
// API tests run before the client is built). Prints `listening <port>` once it accepts connections.
import { buildApp } from '../app';
import { openRuntime } from '../bootstrap';
import { loadEnv } from '../env';
import { startWorker } from '../lib/jobs';
import { jobHandlers, periodicTasks } from '../tasks';

const env = loadEnv();
const runtime = await openRuntime(env);
const app = await buildApp(runtime.ctx);
const worker = startWorker(runtime.ctx, {
  handlers: jobHandlers,
  tasks: periodicTasks,
  log: (msg, err) => console.error(msg, err),
  // The multi-instance test counts these lines across instances.
  onTaskRun: (name) => console.log(`task ${name}`),
});
process.once('SIGTERM', () => {
  void worker
    .stop()
    .then(() => worker.settled(20_000))
    .then(() => app.close())
    .then(() => runtime.close())
    .then(() => process.exit(0));
});
await app.listen({ port: env.PORT, host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
