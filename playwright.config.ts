// The browser journeys (e2e/journeys/*.journey.ts) on @playwright/test, driving Debian's Chromium
// (nothing is downloaded). `npm run test:e2e` = `playwright test`: webServer runs e2e/serve.ts, which
// builds the web app for the journeys when its sources changed and starts the real server on a free port
// with a fresh DATA_DIR (it migrates and seeds). One worker: the journeys share that server, one after
// the other, each in a fresh browser context. Decision 0930.
//
//   E2E_ONLY=<substring>   only the journeys whose title contains it (or: npx playwright test -g <regex>)
//   E2E_BASE_URL=<url>     against an app already running (no server started; outbox journeys fail)
//   E2E_DATA_DIR=<dir>     the server's DATA_DIR, left in place afterwards (otherwise a scratch one)
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import type { JourneyOptions } from './e2e/harness';

const root = import.meta.dirname;

// The config is read by the runner and again by its worker: the runner's choices go to the worker (and
// to the webServer) through the environment, which both inherit.
const env = process.env;
const external = env.E2E_BASE_URL;
if (!external) {
  env.E2E_PORT ??= execFileSync(process.execPath, [
    '-e',
    "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })",
  ])
    .toString()
    .trim();
  if (!env.E2E_DATA_DIR) {
    env.E2E_DATA_DIR = path.join(os.tmpdir(), `directory-e2e-${process.pid}-${Date.now()}`);
    env.E2E_SCRATCH_DATA = '1';
  }
  env.E2E_SERVER_LOG ??= path.join(root, 'test-results', 'e2e-server.log');
}
const only = env.E2E_ONLY;

export default defineConfig<JourneyOptions>({
  testDir: 'e2e/journeys',
  testMatch: '**/*.journey.ts',
  // Its own folder: npm test keeps the unit tests' report next to it in test-results/.
  outputDir: 'test-results/e2e',
  grep: only ? new RegExp(only.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : undefined,
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!env.CI,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: external ?? `http://127.0.0.1:${env.E2E_PORT}`,
    dataDir: external ? '' : env.E2E_DATA_DIR,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    locale: 'en-GB',
    deviceScaleFactor: 1,
    actionTimeout: 15_000,
    navigationTimeout: 15_000,
    // A trace costs about a quarter of a journey's time (7 journeys: 88.6 s with, 62.5 s without, idle). CI keeps
    // nothing but its printed output, so it records none; a local run keeps the failures' traces.
    trace: env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: external
    ? undefined
    : {
        command: `"${process.execPath}" node_modules/tsx/dist/cli.mjs e2e/serve.ts`,
        url: `http://127.0.0.1:${env.E2E_PORT}/api/health`,
        // A first start migrates and seeds; a stale build is rebuilt first.
        timeout: Number(env.E2E_HEALTH_TIMEOUT_MS ?? 420_000),
        reuseExistingServer: false,
        stdout: 'pipe',
        gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      },
});
