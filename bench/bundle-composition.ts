// What the first route's JavaScript is made of (issue 14: at most 110 KB compressed). Builds the client
// (the ordinary `vite build` into dist/client, plus a record of which modules went into which chunk),
// then opens each page of the web-vitals bench in Chromium without throttling, notes every script it
// loads within 3 s of `load` (as the bench does) and prints, per page, each chunk's brotli bytes and what
// the bytes are made of (by package, or by source folder for the app's own code).
//
//   npx tsx bench/bundle-composition.ts [--base http://127.0.0.1:3000] [--no-build | --build-only] [--top 25]
// Without --base it starts the built app on a scratch data directory (300 demo profiles), like the bench.
// A module's share of its chunk's brotli bytes is estimated from its own code compressed alone (scaled
// so the shares add up to the chunk's real size): good for "which library", not exact to the byte.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { build, type Plugin } from 'vite';
import { measuredPages } from './pages';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    'build-only': { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
  },
});
const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'dist/client');
// Beside the build, not in it: the server publishes dist/client.
const recordFile = path.join(root, 'dist/composition.json');

/** chunk file -> module id -> rendered code length and its brotli size alone. */
type Record_ = Record<string, Record<string, { raw: number; br: number }>>;

const brotli = (data: string | Buffer) =>
  zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

function recordModules(): Plugin {
  return {
    name: 'record-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const record: Record_ = {};
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type !== 'chunk') continue;
        record[fileName] = {};
        for (const [id, module] of Object.entries(output.modules)) {
          if (!module.renderedLength) continue;
          record[fileName][id] = { raw: module.renderedLength, br: module.code ? brotli(module.code) : 0 };
        }
      }
      fs.mkdirSync(path.dirname(recordFile), { recursive: true });
      fs.writeFileSync(recordFile, JSON.stringify(record));
    },
  };
}

/** node_modules/<package> (scoped too), or src/<layer>/<folder> for the app's own modules. */
function groupOf(id: string): string {
  const clean = id.replace(/\?.*$/, '').replace(/^\0/, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(clean);
  if (pkg) return pkg[1];
  const rel = path.relative(root, clean);
  if (rel.startsWith('src/shared/i18n/')) return rel.replace(/\.json$/, '');
  const parts = rel.split('/');
  if (parts[0] === 'src') return parts.slice(0, Math.min(parts.length - 1, 3)).join('/') || rel;
  return rel;
}

async function startServer(): Promise<{ base: string; child: ChildProcess }> {
  const port = 3800 + Math.floor(Math.random() * 90);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'composition-'));
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_PROFILES: '300' },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, child };
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error('the app did not start');
}

if (!values['no-build'])
  await build({ root, configFile: path.join(root, 'vite.config.ts'), plugins: [recordModules()] });
if (values['build-only']) process.exit(0);
const record = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as Record_;
const chunkBrotli = (file: string) => {
  const br = path.join(outDir, `${file}.br`);
  return fs.existsSync(br) ? fs.statSync(br).size : brotli(fs.readFileSync(path.join(outDir, file)));
};

const server = values.base ? null : await startServer();
const base = values.base ?? server!.base;
const pages = await measuredPages(base);

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const top = Number(values.top);
for (const [name, p] of pages) {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true });
  await context.addInitScript(() => window.localStorage.setItem('adult-notice', 'accepted'));
  const page = await context.newPage();
  const files: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/dyn/') && url.pathname.endsWith('.js')) files.push(url.pathname.slice(1));
  });
  await page.goto(base + p, { waitUntil: 'load' });
  await page.waitForTimeout(3000);
  await context.close();

  const groups = new Map<string, number>();
  let total = 0;
  console.log(`\n## ${name} (${p})\n`);
  for (const file of files) {
    const size = chunkBrotli(file);
    total += size;
    const modules = record[file] ?? {};
    const sum = Object.values(modules).reduce((s, m) => s + m.br, 0) || 1;
    for (const [id, m] of Object.entries(modules))
      groups.set(groupOf(id), (groups.get(groupOf(id)) ?? 0) + (m.br / sum) * size);
    console.log(`- ${file}: ${(size / 1024).toFixed(1)} KB brotli`);
  }
  console.log(`\n${files.length} scripts, ${(total / 1024).toFixed(1)} KB brotli. Made of:\n`);
  for (const [group, size] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${(size / 1024).toFixed(1).padStart(6)} KB  ${group}`);
}
await browser.close();
server?.child.kill('SIGTERM');
