// The server under the journeys, as playwright.config.ts's webServer runs it: builds the web app for
// the journeys when its sources changed, starts the real server on E2E_PORT with DATA_DIR E2E_DATA_DIR
// (an empty directory, so it migrates and seeds), its output in E2E_SERVER_LOG (the admin journeys read
// the seed's admin login there). On SIGTERM it waits for the server to close its database, then
// removes the data directory if the config made it (E2E_SCRATCH_DATA).
import fs from 'node:fs';
import { buildIfStale, startApp } from '../scripts/app-server';

const { E2E_PORT, E2E_DATA_DIR, E2E_SERVER_LOG, E2E_SCRATCH_DATA } = process.env;
if (!E2E_PORT || !E2E_DATA_DIR || !E2E_SERVER_LOG) {
  console.error('e2e/serve.ts is started by playwright.config.ts (E2E_PORT, E2E_DATA_DIR, E2E_SERVER_LOG)');
  process.exit(2);
}

buildIfStale(true);
fs.mkdirSync(E2E_DATA_DIR, { recursive: true });
const started = Date.now();
const server = await startApp({
  port: Number(E2E_PORT),
  output: E2E_SERVER_LOG,
  env: {
    DATA_DIR: E2E_DATA_DIR,
    SEED_PROFILES: process.env.SEED_PROFILES ?? '300',
    // Every journey registers its own advertisers, all from 127.0.0.1.
    REGISTER_LIMIT_PER_ADDRESS: '1000',
  },
});
console.log(`server healthy after ${((Date.now() - started) / 1000).toFixed(1)} s (DATA_DIR ${E2E_DATA_DIR})`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Playwright signals the whole process group, so the server has its SIGTERM already: a second one
  // would cut its shutdown short. It gets one only if it is still running after a while.
  const timer = setTimeout(() => void server.stop(), 5_000);
  await server.exited;
  clearTimeout(timer);
  if (E2E_SCRATCH_DATA === '1') fs.rmSync(E2E_DATA_DIR!, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
void server.exited.then(() => {
  if (stopping) return;
  console.error(`the server exited on its own; see ${E2E_SERVER_LOG}`);
  process.exit(1);
});
