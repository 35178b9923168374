// The directory under the real mix (issue 25, item 4; issue 21, item 6), beside the cached cases of
// directory.bench.ts, on the same running app:
//  (a) uncached: distinct pages never asked before (country page 1 and deep pages, city, category,
//      search, nearby, profile), one connection, p50/p99 per kind;
//  (b) hot pages (the biggest country's page 1, its biggest city's page 1, a profile on it) read in a
//      loop while profiles change at 5 and 50 writes/s spread over all profiles, and with one write in
//      five in the hot country: p50/p99 and the share of the no-write rate (and of node:http serving the
//      same bytes);
//  (d) the first read of each page after a restart;
//  PGlite: deep nearby pages from 20 clients with /api/health beside them (its p99 is the figure).
// Writes are plain SQL on the database (a top-up: the home listing's bumped_at; an edit: the heading),
// as any writer's: the triggers alone tell the app (docs/decisions/0730).
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import pg from 'pg';
import { SERVICES } from '../src/shared/constants.ts';
import { countryCurrency } from '../src/shared/rules/list-filters.ts';

export interface MixRow {
  backend: string;
  kind: 'uncached' | 'hot' | 'restart' | 'nearby';
  name: string;
  p50: number;
  p99: number;
  /** The slowest request (uncached: p99 of 200 is the second slowest). */
  max?: number;
  /** Reads per second (hot, nearby). */
  rps?: number;
  /** Share of the same pages' rate with no writes, and of node:http serving their bytes (hot). */
  ofQuiet?: number;
  ofNode?: number;
  /** Writes per second done while measuring (hot). */
  writes?: number;
  errors?: number;
  load: number;
}

const load1 = () => Math.round(os.loadavg()[0] * 10) / 10;
const pct = (a: number, b: number) => Math.round((100 * a) / Math.max(b, 1));
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10 : 0;
};

interface Req {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}
const post = (path: string, body: unknown): Req => ({ method: 'POST', path, body: JSON.stringify(body) });

/**
 * One request on a kept-alive connection, timed from its start to the response's last byte; asks for
 * gzip as the earlier client (fetch) did, and decompresses after the clock stops. node:http rather than
 * fetch: fetch cost this 2-core machine about 3 ms of CPU per request, taken from the app and PostgreSQL
 * under test (the app's own request log: p50 6.0 ms serving fetch, 4.4 serving node:http, same pages).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function timed(base: string, r: Req, retry = true): Promise<{ ms: number; status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      base + r.path,
      {
        method: r.method,
        agent,
        headers: {
          'accept-encoding': 'gzip, deflate',
          ...(r.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - t0;
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const bytes =
            encoding === 'gzip' ? zlib.gunzipSync(raw) : encoding === 'deflate' ? zlib.inflateSync(raw) : raw;
          resolve({ ms, status: res.statusCode ?? 0, bytes });
        });
      },
    );
    // A kept-alive connection the app closed (a restart) fails at its first reuse: once more, anew.
    req.on('error', (err: NodeJS.ErrnoException) =>
      retry && req.reusedSocket && err.code === 'ECONNRESET' ? resolve(timed(base, r, false)) : reject(err),
    );
    req.end(r.body);
  });
}

async function json<T>(base: string, r: Req): Promise<T> {
  const res = await timed(base, r);
  if (res.status !== 200) throw new Error(`${r.path} ${r.body ?? ''}: ${res.status}`);
  return JSON.parse(res.bytes.toString()) as T;
}

/** Random but repeatable choices. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface MixOptions {
  backend: string;
  base: string;
  /** PostgreSQL: the database the app runs on (writes, ids). */
  pgUrl?: string;
  duration: number;
  /** Stops and starts the app again; returns its new base address. */
  restart?: () => Promise<string>;
  samples?: number;
  /** Only the uncached filtered lists (issue 27 item 1: `npm run bench -- --only-filters`). */
  onlyFilters?: boolean;
  /**
   * Only the deep nearby pages beside /api/health (issue 21 item 6: `npm run bench -- --only-nearby`), on
   * an app just started (nothing read yet) and then again.
   */
  onlyNearby?: boolean;
}

/**
 * Deep nearby pages (10 to 20, each at a position never asked) from 20 clients for `duration` s, and
 * /api/health on one connection meanwhile: its p99 is the figure (issue 21 item 6: under 50 ms).
 */
export async function measureNearbyLoad(
  backend: string,
  base: string,
  duration: number,
  rand: () => number,
  label = '',
): Promise<MixRow[]> {
  const healthRun = autocannon({ url: `${base}/api/health`, connections: 1, duration });
  const near = await autocannon({
    url: base,
    connections: 20,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/api/directory/nearby?page=20',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({
          ...req,
          path: `/api/directory/nearby?page=${10 + Math.floor(rand() * 11)}`,
          body: JSON.stringify({
            lat: Math.round((35 + rand() * 25) * 1000) / 1000,
            lng: Math.round((-10 + rand() * 40) * 1000) / 1000,
          }),
        }),
      },
    ],
  });
  const h = await healthRun;
  const rows: MixRow[] = [
    {
      backend,
      kind: 'nearby',
      name: `deep nearby pages (10-20), 20 clients, each page new${label}`,
      p50: near.latency.p50,
      p99: near.latency.p99,
      rps: Math.round(near.requests.average),
      errors: near.errors + near.non2xx,
      load: load1(),
    },
    {
      backend,
      kind: 'nearby',
      name: `/api/health meanwhile (1 connection)${label}`,
      p50: h.latency.p50,
      p99: h.latency.p99,
      rps: Math.round(h.requests.average),
      errors: h.errors + h.non2xx,
      load: load1(),
    },
  ];
  console.log(JSON.stringify(rows));
  return rows;
}

export async function measureMix(o: MixOptions): Promise<MixRow[]> {
  const rows: MixRow[] = [];
  const rand = rng(25);
  if (o.onlyNearby) {
    rows.push(...(await measureNearbyLoad(o.backend, o.base, o.duration, rand, ', app just started')));
    rows.push(...(await measureNearbyLoad(o.backend, o.base, o.duration, rand, ', again')));
    return rows;
  }
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  // 200 pages of each kind: the p99 of 60 (the earlier count) was their slowest request, one scavenge
  // of the heap or one page read from disk; of 200 it is the second slowest, and the slowest is shown too.
  const samples = o.samples ?? 200;
  let base = o.base;
  const countries = (
    await json<{ data: Array<{ slug: string; code: string; count: number }> }>(base, {
      method: 'GET',
      path: '/api/directory/countries',
    })
  ).data.sort((a, b) => b.count - a.count);
  const biggest = countries[0];
  const navOf = (country: string) =>
    json<{ places: Array<{ slug: string; count: number }> }>(base, post('/api/directory/getNavigation', { country }));
  const bigNav = await navOf(biggest.slug);
  const pool = o.pgUrl ? new pg.Pool({ connectionString: o.pgUrl, max: 4 }) : null;
  const ids: number[] = pool
    ? (await pool.query('select user_id from profiles where listed')).rows.map((r) => r.user_id as number)
    : [];
  const hotIds: number[] = pool
    ? (
        await pool.query(
          `select distinct l.profile_id from listings l join profiles p on p.user_id = l.profile_id
           where p.listed and l.country_code = $1`,
          [biggest.code],
        )
      ).rows.map((r) => r.profile_id as number)
    : [];
  const words: string[] = pool
    ? (await pool.query('select word from search_words where profiles between 3 and 5000 order by word')).rows.map(
        (r) => r.word as string,
      )
    : ['massage', 'london', 'berlin', 'paris', 'madrid', 'friendly', 'elegant', 'warm'];
  const page1 = await json<{ data: Array<{ id: number }> }>(
    base,
    post('/api/directory/getDirectory?page=1', { country: biggest.slug }),
  );
  if (!ids.length) ids.push(...page1.data.map((i) => i.id));

  // (a) Uncached: each request names a page no earlier request named.
  const categories = ['escorts', 'female', 'male', 'trans', 'dom'];
  const asked = new Set<string>();
  const fresh = (make: () => Req) => {
    for (let i = 0; i < 1000; i++) {
      const r = make();
      const key = `${r.path}|${r.body ?? ''}`;
      if (!asked.has(key)) {
        asked.add(key);
        return r;
      }
    }
    return null;
  };
  const smallCountries = countries.slice(1, 80);
  const cityPages: Array<{ country: string; place: string }> = [];
  for (const c of countries.slice(0, 12)) {
    const nav = c.slug === biggest.slug ? bigNav : await navOf(c.slug);
    for (const p of nav.places.slice(0, 30)) cityPages.push({ country: c.slug, place: p.slug });
  }
  const deepest = Math.min(200, Math.ceil(biggest.count / 24));
  const kinds: Array<[string, () => Req]> = [
    [
      'country page 1',
      () =>
        post('/api/directory/getDirectory?page=1', {
          country: pick(smallCountries).slug,
          category: pick(categories),
        }),
    ],
    [
      `deep page of ${biggest.slug} (2-${deepest})`,
      () =>
        post(`/api/directory/getDirectory?page=${2 + Math.floor(rand() * (deepest - 1))}`, { country: biggest.slug }),
    ],
    ['city page 1', () => post('/api/directory/getDirectory?page=1', { ...pick(cityPages), category: 'escorts' })],
    [
      'category page',
      () =>
        post(`/api/directory/getDirectory?page=${1 + Math.floor(rand() * 3)}`, {
          country: pick(countries.slice(0, 20)).slug,
          category: pick(categories.slice(1)),
        }),
    ],
    ['search', () => post('/api/directory/search?page=1', { q: pick(words) })],
    [
      'nearby (pages 1-20)',
      () =>
        post(`/api/directory/nearby?page=${1 + Math.floor(rand() * 20)}`, {
          lat: Math.round((35 + rand() * 25) * 100) / 100,
          lng: Math.round((-10 + rand() * 40) * 100) / 100,
        }),
    ],
    ['profile', () => ({ method: 'GET', path: `/api/getProfile/${pick(ids)}?track=0` })],
  ];
  // Filtered lists (issue 27 item 1, docs/decisions/0324): each request a combination never asked before,
  // as a visitor narrows a list: an age range, a price range in the list's currency, a service or two, and
  // the flags. A filter that finds few rows walks far down the list: the country pages are the costly ones.
  const ageRange = () => {
    const from = 18 + Math.floor(rand() * 20);
    return { age_min: from, age_max: from + 5 + Math.floor(rand() * 15) };
  };
  const priceRange = (code: string) => {
    const from = 50 + Math.floor(rand() * 100);
    return { price_min: from, price_max: from + 50 + Math.floor(rand() * 200), currency: countryCurrency(code) };
  };
  const someServices = () => [pick([...SERVICES]), ...(rand() < 0.5 ? [pick([...SERVICES])] : [])];
  const codeOf = new Map(countries.map((c) => [c.slug, c.code]));
  const filterKinds: Array<[string, () => Req]> = [
    [
      `filtered ${biggest.slug} page 1 (age, price, service)`,
      () =>
        post('/api/directory/getDirectory?page=1', {
          country: biggest.slug,
          filters: { ...ageRange(), ...priceRange(biggest.code), services: someServices() },
        }),
    ],
    [
      `filtered ${biggest.slug} pages 2-10 (a service)`,
      () =>
        post(`/api/directory/getDirectory?page=${2 + Math.floor(rand() * 9)}`, {
          country: biggest.slug,
          filters: { services: someServices() },
        }),
    ],
    [
      'filtered country page 1 (verified, video or available now)',
      () =>
        post('/api/directory/getDirectory?page=1', {
          country: pick(countries.slice(0, 20)).slug,
          category: pick(categories),
          filters: { [pick(['verified', 'video', 'available'])]: true, ...(rand() < 0.5 ? ageRange() : {}) },
        }),
    ],
    [
      'filtered city page 1 (age, price, service)',
      () => {
        const city = pick(cityPages);
        return post('/api/directory/getDirectory?page=1', {
          ...city,
          filters: { ...ageRange(), ...priceRange(codeOf.get(city.country) ?? ''), services: someServices() },
        });
      },
    ],
    [
      'filtered search (a service, in-call)',
      () =>
        post('/api/directory/search?page=1', { q: pick(words), filters: { services: someServices(), incall: true } }),
    ],
    [
      'filtered nearby (age)',
      () =>
        post('/api/directory/nearby?page=1', {
          lat: Math.round((35 + rand() * 25) * 100) / 100,
          lng: Math.round((-10 + rand() * 40) * 100) / 100,
          filters: ageRange(),
        }),
    ],
  ];
  if (o.onlyFilters) kinds.length = 0;
  kinds.push(...filterKinds);
  // A few reads of each kind first (not measured): the database's own caches, not the answers. They are
  // pages never asked again (before, a measured page could be one of these, answered from the cache).
  for (const [, make] of kinds)
    for (let i = 0; i < 5; i++) {
      const r = fresh(make);
      if (r) await timed(base, r);
    }
  for (const [name, make] of kinds) {
    const ms: number[] = [];
    let errors = 0;
    for (let i = 0; i < samples; i++) {
      const r = fresh(make);
      if (!r) break;
      const res = await timed(base, r);
      if (res.status !== 200) {
        errors++;
        if (errors === 1) console.error(`${name}: ${res.status} ${res.bytes.toString().slice(0, 300)}`);
      }
      ms.push(res.ms);
    }
    rows.push({
      backend: o.backend,
      kind: 'uncached',
      name: `${name} (${ms.length} pages)`,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
      max: percentile(ms, 100),
      errors,
      load: load1(),
    });
    console.log(JSON.stringify(rows.at(-1)));
  }

  if (o.onlyFilters) {
    await pool?.end();
    return rows;
  }

  // (b) Hot pages while profiles change (PostgreSQL: the writes come from another client, as another
  // instance's or the SQL console's would).
  const hot: Req[] = [
    post('/api/directory/getDirectory?page=1', { country: biggest.slug }),
    post('/api/directory/getDirectory?page=1', { country: biggest.slug, place: bigNav.places[0].slug }),
    { method: 'GET', path: `/api/getProfile/${page1.data[0].id}?track=0` },
  ];
  const hotRun = async (connections: number) => {
    const r = await autocannon({
      url: base,
      connections,
      duration: o.duration,
      requests: hot.map((h) => ({
        method: h.method,
        path: h.path,
        body: h.body,
        headers: h.body ? { 'content-type': 'application/json' } : {},
      })),
    });
    return {
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
    };
  };
  if (pool) {
    const bytes = await Promise.all(hot.map(async (h) => (await timed(base, h)).bytes));
    let served = 0;
    const node = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const body = bytes[served++ % bytes.length];
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const nodeBase = `http://127.0.0.1:${(node.address() as { port: number }).port}`;
    const nodeRun = await autocannon({
      url: nodeBase,
      connections: 10,
      duration: o.duration,
      requests: hot.map((h) => ({ method: h.method, path: h.path, body: h.body })),
    });
    node.close();
    const nodeRps = Math.round(nodeRun.requests.average);
    const heads = ['Edited', 'Back tonight', 'New photos', 'Available now', 'Weekend in town'];
    const write = async (id: number, n: number) => {
      if (n % 2)
        await pool.query(`update listings set bumped_at = now() where profile_id = $1 and kind = 'home'`, [id]);
      else await pool.query('update profiles set heading = $2 where user_id = $1', [id, `${heads[n % 5]} ${n}`]);
    };
    const quiet = await hotRun(10);
    rows.push({
      backend: o.backend,
      kind: 'hot',
      name: 'no writes',
      ...quiet,
      ofQuiet: 100,
      ofNode: pct(quiet.rps, nodeRps),
      load: load1(),
    });
    console.log(JSON.stringify(rows.at(-1)));
    for (const [rate, own] of [
      [5, false],
      [50, false],
      [5, true],
      [50, true],
    ] as const) {
      let n = 0;
      let done = 0;
      let failed = 0;
      const timer = setInterval(() => {
        n++;
        const id = own && n % 5 === 0 ? pick(hotIds) : pick(ids);
        write(id, n).then(
          () => done++,
          () => failed++,
        );
      }, 1000 / rate);
      const t0 = performance.now();
      const run = await hotRun(10);
      clearInterval(timer);
      const secs = (performance.now() - t0) / 1000;
      rows.push({
        backend: o.backend,
        kind: 'hot',
        name: `${rate} writes/s over all profiles${own ? `, 1 in 5 in ${biggest.slug}` : ''}`,
        ...run,
        errors: run.errors + failed,
        ofQuiet: pct(run.rps, quiet.rps),
        ofNode: pct(run.rps, nodeRps),
        writes: Math.round((done / secs) * 10) / 10,
        load: load1(),
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
  }

  // PGlite: deep nearby pages from 20 clients (each a page never asked), /api/health beside them.
  if (o.backend === 'pglite') rows.push(...(await measureNearbyLoad(o.backend, base, o.duration, rand)));

  // (d) The first read of each page after a restart.
  if (o.restart) {
    base = await o.restart();
    for (const [name, r] of [
      [`${biggest.slug} page 1`, hot[0]],
      [`${bigNav.places[0].slug} page 1`, hot[1]],
      ['profile', hot[2]],
      ['search', post('/api/directory/search?page=1', { q: 'massage' })],
      ['nearby', post('/api/directory/nearby?page=1', { lat: 51.5, lng: -0.1 })],
      ['countries', { method: 'GET', path: '/api/directory/countries' } as Req],
    ] as Array<[string, Req]>) {
      const res = await timed(base, r);
      rows.push({
        backend: o.backend,
        kind: 'restart',
        name: `first ${name}`,
        p50: Math.round(res.ms * 10) / 10,
        p99: Math.round(res.ms * 10) / 10,
        errors: res.status === 200 ? 0 : 1,
        load: load1(),
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
  }
  await pool?.end();
  return rows;
}

/** The mix's rows as a table for bench/README.md. */
export function mixTable(rows: MixRow[]): string {
  const header = [
    'backend',
    'kind',
    'case',
    'p50 ms',
    'p99 ms',
    'max ms',
    'req/s',
    'of no writes',
    'of node:http',
    'writes/s',
    'errors',
    'load',
  ];
  const cell = (v: number | undefined, unit = '') => (v === undefined ? '' : `${v}${unit}`);
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map(
      (r) =>
        `| ${[r.backend, r.kind, r.name, cell(r.p50), cell(r.p99), cell(r.max), cell(r.rps), cell(r.ofQuiet, ' %'), cell(r.ofNode, ' %'), cell(r.writes), cell(r.errors), cell(r.load)].join(' | ')} |`,
    ),
  ].join('\n');
}
