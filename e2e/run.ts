// `npm run test:e2e`: builds the web app when its sources changed, starts the real server on a
// free port with a fresh DATA_DIR (so it migrates and seeds), drives Debian's Chromium through the
// journeys, prints "N passed, M failed" and exits non-zero on any failure.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { journeys, saveScreenshot, SCREENSHOT_DIR, type Journey } from './harness';

const root = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];
const HEALTH_TIMEOUT_MS = Number(process.env.E2E_HEALTH_TIMEOUT_MS ?? 300_000);
const JOURNEY_TIMEOUT_MS = 90_000;

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function buildIfStale(): void {
  const marker = path.join(root, 'dist/client/build-id.txt');
  const inputs = ['src/client', 'src/shared', 'index.html', 'vite.config.ts'].map((p) => path.join(root, p));
  const builtAt = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  // The journeys drive the app through its test handle, which only a build for them has (vite.config.ts).
  const forJourneys = fs.existsSync(path.join(root, 'dist/client/test-hooks.txt'));
  if (builtAt && forJourneys && Math.max(...inputs.map(newestMtime)) <= builtAt) return;
  console.log('building the web app...');
  const res = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, DIRECTORY_TEST_HOOKS: '1' } },
  );
  if (res.status !== 0) throw new Error('vite build failed');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startServer(port: number, dataDir: string, logFile: string): Promise<ChildProcess> {
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_PROFILES: process.env.SEED_PROFILES ?? '300',
      // Every journey registers its own advertisers, all from 127.0.0.1.
      REGISTER_LIMIT_PER_ADDRESS: '1000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', log, log],
  });
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}; see ${logFile}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGTERM');
  throw new Error(`server not healthy after ${HEALTH_TIMEOUT_MS} ms; see ${logFile}`);
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Browser lines for failed requests a journey provoked on purpose are fine; anything else fails it. */
const ALWAYS_ALLOWED = [
  // A visitor's start-up user-data call answers 401 by design.
  /Failed to load resource: the server responded with a status of 401/,
];

async function runJourney(
  browser: Browser,
  baseUrl: string,
  dataDir: string,
  journey: Journey,
): Promise<string | null> {
  const context = await browser.newContext({ viewport: journey.viewport, deviceScaleFactor: 1, locale: 'en-GB' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  const allowed = [...ALWAYS_ALLOWED];
  const failedResponses: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 400)
      failedResponses.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} [${message.location().url}]`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  try {
    await Promise.race([
      journey.run({
        page,
        baseUrl,
        viewport: journey.viewport,
        requests,
        screenshot: (step) => saveScreenshot(page, `${journey.name}-${step}`),
        allowConsoleError: (pattern) => allowed.push(pattern),
        dataDir,
      }),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`timed out after ${JOURNEY_TIMEOUT_MS} ms`)), JOURNEY_TIMEOUT_MS),
      ),
    ]);
    const unexpected = consoleErrors.filter((line) => !allowed.some((pattern) => pattern.test(line)));
    if (unexpected.length) {
      throw new Error(
        `unexpected console errors:\n  ${unexpected.join('\n  ')}\nfailed responses:\n  ${failedResponses.join('\n  ') || '(none)'}`,
      );
    }
    return null;
  } catch (error) {
    await saveScreenshot(page, `${journey.name}-FAILED`).catch(() => undefined);
    return error instanceof Error ? (error.stack ?? error.message) : String(error);
  } finally {
    // A route handler still fetching when the journey ends would reject after the context is gone.
    await page.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined);
    await context.close();
  }
}

async function main(): Promise<number> {
  const files = fs
    .readdirSync(path.join(import.meta.dirname, 'journeys'))
    .filter((f) => f.endsWith('.journey.ts'))
    .sort();
  for (const file of files) await import(`./journeys/${file}`);
  const only = process.env.E2E_ONLY;
  const selected = only ? journeys.filter((j) => j.name.includes(only)) : journeys;

  // E2E_BASE_URL runs the journeys against an app that is already running (debugging).
  const external = process.env.E2E_BASE_URL;
  let server: ChildProcess | undefined;
  let baseUrl = external ?? '';
  // E2E_DATA_DIR reuses a prepared data directory (debugging); it is left in place afterwards.
  const keepData = !!process.env.E2E_DATA_DIR;
  const dataDir = external
    ? ''
    : (process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'directory-e2e-')));
  // Screenshots of an earlier run would pass for this run's.
  fs.rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  if (!external) {
    buildIfStale();
    const port = await freePort();
    const logFile = path.join(SCREENSHOT_DIR, 'server.log');
    console.log(`starting server on :${port} (DATA_DIR ${dataDir}, log ${path.relative(root, logFile)})`);
    const started = Date.now();
    server = await startServer(port, dataDir, logFile);
    console.log(`server healthy after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    baseUrl = `http://127.0.0.1:${port}`;
  }

  let browser: Browser | undefined;
  let passed = 0;
  let failed = 0;
  // A promise a journey left behind must fail the run with a message, not kill it mid-way.
  const stray: string[] = [];
  process.on('unhandledRejection', (reason) => {
    stray.push(reason instanceof Error ? (reason.stack ?? reason.message) : String(reason));
  });
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    for (const journey of selected) {
      const t0 = Date.now();
      const failure = await runJourney(browser, baseUrl, dataDir, journey);
      const ms = Date.now() - t0;
      if (failure) {
        failed += 1;
        console.log(`✗ ${journey.name} (${ms} ms)\n    ${failure.split('\n').join('\n    ')}`);
      } else {
        passed += 1;
        console.log(`✓ ${journey.name} (${ms} ms)`);
      }
    }
  } catch (error) {
    failed += 1;
    console.log(`✗ runner: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser?.close();
    if (server) await stopServer(server);
    if (dataDir && !keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  for (const reason of stray) {
    failed += 1;
    console.log(`✗ unhandled rejection left by a journey:\n    ${reason.split('\n').join('\n    ')}`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.log(`✗ runner: ${error instanceof Error ? error.message : String(error)}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
