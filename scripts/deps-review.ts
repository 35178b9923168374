// The dependency review that `npm audit` cannot do here (no advisory service is reachable, and no
// maintained advisory database ships offline through npm): checks on the locked production tree that need
// no network. README "Dependencies and their review" says what the rest of the review is.
//
//   npx tsx scripts/deps-review.ts        (npm run deps:review; exit 1 on a finding)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  license?: string;
  dev?: boolean;
  optional?: boolean;
  hasInstallScript?: boolean;
  link?: boolean;
}

/** Production packages that run an install script, and why that is accepted. */
export const INSTALL_SCRIPTS_ALLOWED: Record<string, string> = {
  esbuild: 'picks its platform binary from an optional registry package (used by vite and tsx); downloads nothing',
};

/** Licences that allow use in a closed commercial site without obligations on our code. */
const PERMISSIVE = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'BlueOak-1.0.0',
  'CC0-1.0',
]);

/** Weak-copyleft licences looked at and accepted, with the reason (any other licence is a finding). */
export const LICENCES_REVIEWED: Record<string, string> = {
  'LGPL-3.0-or-later': "libvips inside sharp's platform packages: an unmodified library loaded at run time",
  'MPL-2.0': "lightningcss, vite's CSS step at build time: unmodified, file-level copyleft only",
};

const licenceOk = (licence: string) =>
  licence
    .replace(/[()]/g, '')
    .split(/ AND | OR /)
    .every((term) => PERMISSIVE.has(term) || term in LICENCES_REVIEWED);

export function review(root = ROOT): { problems: string[]; summary: string } {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const problems: string[] = [];

  // 1. Every direct production dependency says in the README what it is for.
  const lines = readme.split('\n').filter((l) => l.startsWith('|'));
  for (const name of Object.keys(pkg.dependencies)) {
    const [scope, short] = name.startsWith('@') ? name.split('/') : ['', name];
    const named = lines.some(
      (l) => l.includes(name) || (scope && l.includes(`${scope}/`) && new RegExp(`\\b${short}\\b`).test(l)),
    );
    if (!named) problems.push(`${name}: a production dependency the README's dependency table does not explain`);
  }

  // 2. The locked production tree: each package with a sha512 hash (npm ci refuses a tarball that does
  //    not match it), a permissive or reviewed licence, and no install script beyond the accepted ones.
  const prod = Object.entries(lock.packages).filter(([key, e]) => key.startsWith('node_modules/') && !e.dev && !e.link);
  const licences = new Map<string, number>();
  for (const [key, e] of prod) {
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!e.integrity?.startsWith('sha512-')) problems.push(`${name}@${e.version}: locked without a sha512 hash`);
    if (e.resolved && !e.resolved.startsWith('https://')) problems.push(`${name}@${e.version}: not from a registry`);
    const licence = e.license ?? 'none';
    licences.set(licence, (licences.get(licence) ?? 0) + 1);
    if (!licenceOk(licence)) problems.push(`${name}@${e.version}: licence ${licence} needs a look`);
    if (e.hasInstallScript && !INSTALL_SCRIPTS_ALLOWED[name])
      problems.push(`${name}@${e.version}: runs an install script`);
  }
  const summary =
    `${Object.keys(pkg.dependencies).length} direct production dependencies, ${prod.length} locked production packages; ` +
    `licences: ${[...licences].map(([l, n]) => `${l} ${n}`).join(', ')}`;
  return { problems, summary };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { problems, summary } = review();
  console.log(summary);
  for (const p of problems) console.log(`- ${p}`);
  console.log(problems.length ? `${problems.length} finding(s)` : 'no findings');
  process.exitCode = problems.length ? 1 : 0;
}
