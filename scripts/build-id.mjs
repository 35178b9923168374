// The id of a build (`npm run build`): the web app's chunk addresses carry it (?v=<id>), the server
// reports it (/api/health) and keys its answer cache by it, so two builds of different code must never
// share one, and two builds of the same code (two compose instances built apart) should share it.
// - BUILD_ID when it is set (and not empty): the operator's own name for the release;
// - else, in a git checkout, the commit (8 hex digits), with the sources' hash after it when the tree has
//   changes not committed;
// - else (a Docker build context carries no .git) the sources' hash: the same files give the same id.
// Plain JavaScript: vite.config.ts imports it, and so does its test.
import { execSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What a build is made of: the sources of both halves, the page, the build's own settings, the lock file. */
export const BUILD_INPUTS = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'scripts/build-server.mjs',
  'package.json',
  'package-lock.json',
];

/** A hash over every file of BUILD_INPUTS under `root` (names and contents, in a fixed order): 10 hex digits. */
export function sourcesHash(root) {
  const hash = crypto.createHash('sha256');
  const visit = (rel) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isDirectory()) {
      for (const entry of fs.readdirSync(abs).sort()) visit(path.posix.join(rel, entry));
      return;
    }
    hash.update(`${rel}\0${fs.statSync(abs).size}\0`);
    hash.update(fs.readFileSync(abs));
  };
  for (const input of BUILD_INPUTS) visit(input);
  return hash.digest('hex').slice(0, 10);
}

export function resolveBuildId(root, env = process.env) {
  if (env.BUILD_ID) return env.BUILD_ID;
  const git = (args) =>
    execSync(`git ${args}`, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  let sha;
  try {
    if (!fs.existsSync(path.join(root, '.git'))) throw new Error('not a checkout');
    sha = git('rev-parse --short=8 HEAD');
  } catch {
    return sourcesHash(root);
  }
  const dirty = git('status --porcelain --untracked-files=no');
  return dirty ? `${sha}-${sourcesHash(root)}` : sha;
}
