// `npm start` (plain JavaScript: it runs before anything is compiled, and without tsx in production).
// production (NODE_ENV=production): runs the build that `npm run build` made, in this process, and builds
//   nothing: dist/server/main.js with the web app of the same build in dist/client.
// otherwise (the embedded default, `npm install && npm start`): builds the web app when its sources
//   changed since the last build, then runs the TypeScript sources through tsx, also in this process.
// One process either way: `npm start` execs node, so the SIGTERM npm passes on reaches the server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const at = (p) => path.join(root, p);
const marker = at('dist/client/build-id.txt');
// A build left by the browser journeys carries their test handle: the site is never served with it.
const forJourneys = fs.existsSync(at('dist/client/test-hooks.txt'));

if (process.env.NODE_ENV === 'production') {
  const problem = !fs.existsSync(at('dist/server/main.js'))
    ? 'there is no build of the server (dist/server/main.js)'
    : !fs.existsSync(marker)
      ? 'there is no build of the web app (dist/client)'
      : forJourneys
        ? 'dist/client is a build for the browser journeys (it carries their test handle)'
        : fs.readFileSync(marker, 'utf8').trim() !== fs.readFileSync(at('dist/server/build-id.txt'), 'utf8').trim()
          ? 'dist/server and dist/client come from different builds'
          : undefined;
  if (problem) {
    console.error(`\n  Cannot start in production: ${problem}. Run \`npm run build\` first.\n`);
    process.exit(1);
  }
  await import(pathToFileURL(at('dist/server/main.js')).href);
} else {
  // Development needs the dev dependencies (vite, tsx), which `npm install` installs; an install made with
  // --omit=dev serves only a build (NODE_ENV=production).
  for (const tool of ['vite', 'tsx']) {
    if (!fs.existsSync(at(`node_modules/${tool}/package.json`))) {
      console.error(
        `\n  Cannot start: ${tool} is not installed (an install without dev dependencies?). Run \`npm install\`,` +
          ' or `npm run build` on a full install and start with NODE_ENV=production.\n',
      );
      process.exit(1);
    }
  }
  const inputs = ['src/client', 'src/shared', 'index.html', 'vite.config.ts', 'package-lock.json'];
  const newestMtime = (p) => {
    if (!fs.existsSync(p)) return 0;
    const stat = fs.statSync(p);
    if (!stat.isDirectory()) return stat.mtimeMs;
    let newest = stat.mtimeMs;
    for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
    return newest;
  };
  const builtAt = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  if (
    !builtAt ||
    forJourneys ||
    Math.max(...inputs.map((p) => newestMtime(at(p)))) > builtAt ||
    process.env.FORCE_BUILD
  ) {
    console.log('Building the web app...');
    const res = spawnSync(process.execPath, [at('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, DIRECTORY_TEST_HOOKS: '' },
    });
    if (res.status !== 0) process.exit(res.status ?? 1);
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(at('src/server/main.ts')).href);
}
