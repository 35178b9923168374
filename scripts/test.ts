// `npm test`: unit and API tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), then the
// browser journeys (Playwright, playwright.config.ts) against the built app. Ends with one
// "N passed, N failed" line over everything and exits non-zero when any part fails.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const node = process.execPath;

function run(label: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ ok: boolean; out: string }> {
  console.log(`\n=== ${label} ===`);
  return new Promise((resolve) => {
    const child = spawn(node, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('close', (code) => resolve({ ok: code === 0, out }));
  });
}

let passed = 0;
let failed = 0;
const parts: Array<[string, boolean]> = [];

const vitestJson = path.join(root, 'test-results/vitest.json');
fs.mkdirSync(path.dirname(vitestJson), { recursive: true });
fs.rmSync(vitestJson, { force: true });
const unit = await run('unit and API tests', [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
parts.push(['unit and API tests', unit.ok]);
if (fs.existsSync(vitestJson)) {
  const report = JSON.parse(fs.readFileSync(vitestJson, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}
if (!unit.ok && failed === 0) failed += 1;

if (!process.env.SKIP_E2E) {
  // A build for the journeys: it carries their test handle (vite.config.ts), which `npm start` rebuilds without.
  const build = await run('build the web app', ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    DIRECTORY_TEST_HOOKS: '1',
  });
  parts.push(['build', build.ok]);
  if (!build.ok) failed += 1;
  else {
    // Playwright (playwright.config.ts) starts the server and writes its JSON report next to the unit tests'.
    const e2eJson = path.join(root, 'test-results/e2e.json');
    fs.rmSync(e2eJson, { force: true });
    const e2e = await run('browser journeys', ['node_modules/@playwright/test/cli.js', 'test']);
    parts.push(['browser journeys', e2e.ok]);
    let e2eFailed = -1;
    if (fs.existsSync(e2eJson)) {
      const report = JSON.parse(fs.readFileSync(e2eJson, 'utf8')) as {
        stats: { expected: number; unexpected: number; flaky: number };
        errors: unknown[];
      };
      passed += report.stats.expected;
      // No retries, so nothing is flaky; were a test retried, it would count as failed here.
      e2eFailed = report.stats.unexpected + report.stats.flaky + report.errors.length;
    }
    failed += Math.max(e2eFailed, 0);
    // A run that failed without a failed test (no report, a broken config) still counts once.
    if (!e2e.ok && e2eFailed <= 0) failed += 1;
  }
}

console.log('\n=== summary ===');
for (const [label, ok] of parts) console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(parts.every(([, ok]) => ok) ? 0 : 1);
