// `npm start`: build the SPA when its sources changed since the last build, then start the server
// (which applies migrations and seeds an empty database).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const marker = path.join(root, 'dist/client/build-id.txt');
const inputs = ['src/client', 'src/shared', 'index.html', 'vite.config.ts', 'package-lock.json'];

function newestMtime(p: string): number {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const builtAt = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
// A build left by the browser journeys carries their test handle: the site is never served with it.
const forJourneys = fs.existsSync(path.join(root, 'dist/client/test-hooks.txt'));
if (!builtAt || forJourneys || Math.max(...inputs.map(newestMtime)) > builtAt || process.env.FORCE_BUILD) {
  console.log('Building the web app...');
  const res = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, DIRECTORY_TEST_HOOKS: '' },
    },
  );
  if (res.status !== 0) process.exit(res.status ?? 1);
}

await import('../src/server/main');
