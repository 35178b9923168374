// `npm test`: unit and API tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), then the
// browser journeys against the built app. Ends with one "N passed, N failed" line over everything
// and exits non-zero when any part fails.
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
    const e2e = await run('browser journeys', ['node_modules/tsx/dist/cli.mjs', 'e2e/run.ts']);
    parts.push(['browser journeys', e2e.ok]);
    const m = [...e2e.out.matchAll(/^(\d+) passed, (\d+) failed/gm)].at(-1);
    if (m) {
      passed += Number(m[1]);
      failed += Number(m[2]);
    }
    if (!e2e.ok && (!m || Number(m[2]) === 0)) failed += 1;
  }
}

console.log('\n=== summary ===');
for (const [label, ok] of parts) console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(parts.every(([, ok]) => ok) ? 0 : 1);
