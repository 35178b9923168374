// Lists the client imports that go against the layer direction of decision 0920:
// app (+ main.tsx) -> sections -> features -> components, lib -> shared, and a feature reaching
// another feature only through its index.ts. ESLint enforces the same rule (eslint.config.js); this
// script counts and names the offenders, e.g. before moving files. Usage: npx tsx scripts/client-layers.ts
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const client = path.join(root, 'src/client');
const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('#client/')) base = path.join(client, spec.slice('#client/'.length));
  else if (spec.startsWith('#shared/')) base = path.join(root, 'src/shared', spec.slice('#shared/'.length));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return base;
}

/** 0 app and main.tsx, 1 sections, 2 features, 3 components and lib, 4 shared. */
function layer(file: string): { rank: number; area: string } {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (rel.startsWith('src/shared/')) return { rank: 4, area: 'shared' };
  const inClient = rel.slice('src/client/'.length);
  const [top, second] = inClient.split('/');
  if (top === 'main.tsx' || top === 'app') return { rank: 0, area: 'app' };
  if (top === 'sections') return { rank: 1, area: `sections/${second}` };
  if (top === 'features') return { rank: 2, area: `features/${second}` };
  if (top === 'components' || top === 'lib') return { rank: 3, area: top };
  return { rank: 3, area: top ?? '' };
}

const direction: string[] = [];
const internals: string[] = [];
for (const file of walk(client)) {
  const source = fs.readFileSync(file, 'utf8');
  const from = layer(file);
  for (const match of source.matchAll(IMPORT_RE)) {
    const target = resolve(file, match[1]);
    if (!target) continue;
    const to = layer(target);
    const line = `${path.relative(client, file)} -> ${match[1]}`;
    if (to.rank < from.rank) direction.push(`[${from.area} -> ${to.area}] ${line}`);
    else if (
      from.rank === 2 &&
      to.rank === 2 &&
      from.area !== to.area &&
      !/^index\.tsx?$/.test(path.basename(target))
    ) {
      internals.push(`[${from.area} -> ${to.area}] ${line}`);
    }
  }
}
for (const line of direction) console.log(line);
for (const line of internals) console.log(line);
console.log(`direction: ${direction.length}, feature internals: ${internals.length}`);
process.exitCode = direction.length + internals.length > 0 ? 1 : 0;
