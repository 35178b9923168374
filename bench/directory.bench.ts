// Benchmark of the directory's hot calls on 50,000 seeded profiles: getDirectory (page 1 and a deep
// page of the biggest country, and a city) and search, on PGlite and on PostgreSQL, next to plain
// node:http serving the very same response bytes from memory. The ratio to node:http is the figure:
// it shows what the database and the app cost on top of the fastest possible answer on this machine.
//
//   npm run bench                         # both backends, 50,000 profiles, 10 s per case
//   npm run bench -- --profiles 5000 --duration 5 --backends pglite
//
// Data is seeded once and kept: PGlite under $BENCH_DIR (default /tmp/directory-bench), PostgreSQL in
// database `directory_bench` of $BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    profiles: { type: 'string', default: '50000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    backends: { type: 'string', default: 'pglite,postgres' },
  },
});
const PROFILES = Number(args.profiles);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const BENCH_DIR = process.env.BENCH_DIR ?? '/tmp/directory-bench';
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PG_DB = `directory_bench_${PROFILES}`;
const pgUrl = () => {
  const u = new URL(PG_ADMIN);
  u.pathname = `/${PG_DB}`;
  return u.toString();
};
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');

function sh(args: string[], env: Record<string, string>) {
  const res = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.status !== 0) throw new Error(`failed: ${args.join(' ')}`);
}

async function prepare(backend: string): Promise<Record<string, string>> {
  if (backend === 'pglite') {
    const dir = path.join(BENCH_DIR, `pglite-${PROFILES}`);
    const env = { DATA_DIR: dir, SEED_PROFILES: '0' };
    if (!fs.existsSync(path.join(dir, '.seeded'))) {
      console.log(`Seeding ${PROFILES} profiles into PGlite at ${dir} (once)...`);
      fs.rmSync(dir, { recursive: true, force: true });
      sh([tsx, 'scripts/seed.ts', '--profiles', String(PROFILES), '--no-gallery'], env);
      fs.writeFileSync(path.join(dir, '.seeded'), '');
    }
    return env;
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [PG_DB])).rowCount;
  if (!exists) await admin.query(`create database "${PG_DB}"`);
  await admin.end();
  const env = { DATA_DIR: path.join(BENCH_DIR, `pg-media-${PROFILES}`), DATABASE_URL: pgUrl(), SEED_PROFILES: '0' };
  const client = new pg.Client({ connectionString: pgUrl() });
  await client.connect();
  const seeded = await client
    .query('select count(*)::int as n from profiles')
    .then((r) => r.rows[0].n as number)
    .catch(() => 0);
  await client.end();
  if (seeded < PROFILES) {
    console.log(`Seeding ${PROFILES} profiles into PostgreSQL ${PG_DB} (once)...`);
    sh([tsx, 'scripts/seed.ts', '--profiles', String(PROFILES), '--no-gallery'], env);
  }
  return env;
}

async function startServer(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [tsx, 'src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('server did not start');
}

interface Case {
  name: string;
  path: string;
  body: string;
}

/** The same bytes from memory through node:http: the ceiling of this machine for this response. */
function memoryServer(responses: Map<string, Buffer>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = responses.get(req.url ?? '') ?? Buffer.from('{}');
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function load(url: string, c: Case) {
  const result = await autocannon({
    url: url + c.path,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: c.body,
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const rows: string[][] = [];
const backends = args.backends!.split(',').filter(Boolean);
for (const [i, backend] of backends.entries()) {
  const env = await prepare(backend);
  const port = 3900 + i;
  const server = await startServer(env, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const countries = (await (await fetch(`${base}/api/directory/countries`)).json()) as {
      data: Array<{ slug: string; count: number }>;
    };
    const biggest = [...countries.data].sort((a, b) => b.count - a.count)[0];
    const nav = (await (
      await fetch(`${base}/api/directory/getNavigation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ country: biggest.slug }),
      })
    ).json()) as { places: Array<{ slug: string }> };
    const cases: Case[] = [
      {
        name: `getDirectory ${biggest.slug} p1 (${biggest.count})`,
        path: '/api/directory/getDirectory?page=1',
        body: JSON.stringify({ country: biggest.slug }),
      },
      {
        name: `getDirectory ${biggest.slug} p20`,
        path: '/api/directory/getDirectory?page=20',
        body: JSON.stringify({ country: biggest.slug }),
      },
      {
        name: `getDirectory ${nav.places[0].slug} female`,
        path: '/api/directory/getDirectory?page=1',
        body: JSON.stringify({ category: 'female', country: biggest.slug, place: nav.places[0].slug }),
      },
      { name: 'search "massage"', path: '/api/directory/search?page=1', body: JSON.stringify({ q: 'massage' }) },
      { name: 'search "lodnon" (typo)', path: '/api/directory/search?page=1', body: JSON.stringify({ q: 'lodnon' }) },
      {
        name: 'nearby (central London)',
        path: '/api/directory/nearby?page=1',
        body: JSON.stringify({ lat: 51.5, lng: -0.1 }),
      },
    ];
    // Same bytes for the memory server, captured from the app.
    const responses = new Map<string, Buffer>();
    for (const c of cases) {
      const key = `${c.path}#${c.name}`;
      const res = await fetch(base + c.path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: c.body,
      });
      responses.set(key, Buffer.from(await res.arrayBuffer()));
    }
    for (const c of cases) {
      const app = await load(base, c);
      const mem = await memoryServer(new Map([[c.path, responses.get(`${c.path}#${c.name}`)!]]));
      const memPort = (mem.address() as { port: number }).port;
      const raw = await load(`http://127.0.0.1:${memPort}`, c);
      mem.close();
      const bytes = responses.get(`${c.path}#${c.name}`)!.length;
      rows.push([
        backend,
        c.name,
        String(bytes),
        `${app.rps}`,
        `${app.p50}`,
        `${app.p99}`,
        `${raw.rps}`,
        `${raw.p50}`,
        `${raw.p99}`,
        (raw.rps / Math.max(app.rps, 1)).toFixed(1),
        String(app.errors),
      ]);
      console.log(rows.at(-1)!.join(' | '));
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

const header = [
  'backend',
  'case',
  'bytes',
  'app req/s',
  'app p50 ms',
  'app p99 ms',
  'node:http req/s',
  'node p50',
  'node p99',
  'node/app',
  'errors',
];
console.log(`\n${PROFILES} profiles, ${CONNECTIONS} connections, ${DURATION} s per case\n`);
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
