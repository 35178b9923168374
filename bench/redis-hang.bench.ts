// A Redis that hangs (issue 42 item 3, decision 1010): the app (src/server/test/server-process.ts, the
// app and its worker, in a child process, on PGlite) against a redis-server of the bench's own, through a
// pass-through that counts the commands the app sends. The bench pauses that Redis with SIGSTOP (it still
// accepts connections, answers nothing) and measures, one request at a time: how long readiness takes to
// say 503 when it is the first to ask, directory pages never asked before (country, city and search
// pages: the answer cache's Redis layer is asked, then the database), profiles (each view is counted in
// Redis), a sign-in (its limits live in Redis: 503 while it is hung), and readiness, each before the
// hang, during it, and once it has answered again; how long the instance takes to see Redis answer
// again after SIGCONT; and what reached Redis while it was hung. A second hang is noticed by a page
// first. Goals: p99 under 100 ms while Redis is hung, readiness 503 within 1 s. The figures go into
// bench/README.md with the date and the machine's load.
//
//   npm run bench -- --only-redis-hang                   # 100 requests of each kind per phase
//   npx tsx bench/redis-hang.bench.ts --requests 50 --keep-readme
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startApp } from '../scripts/app-server';
import { openRuntime } from '../src/server/bootstrap';
import { loadEnv } from '../src/server/env';
import { hashPassword } from '../src/server/lib/password';
import { COMMAND_TIMEOUT_MS, PROBE_INTERVAL_MS } from '../src/server/lib/redis';
import { BERLIN, createAdvertiser, LONDON, MANCHESTER, seedGeo } from '../src/server/test/factories';
import { percentile } from '../src/server/test/money-mix';
import { countingProxy, startOwnRedis } from '../src/server/test/own-redis';
import { writeReadmeBlock } from './readme';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '100' },
    'keep-readme': { type: 'boolean', default: false },
  },
});
const N = Number(args.requests);
const BEGIN = '<!-- redis-hang:begin -->';
const END = '<!-- redis-hang:end -->';
const PASSWORD = 'a long bench password 42';

type Kind = 'directory page' | 'profile' | 'sign-in' | 'readiness';
const KINDS: Kind[] = ['directory page', 'profile', 'sign-in', 'readiness'];
interface Sample {
  kind: Kind;
  ms: number;
  status: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redis-hang-bench-'));
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: crypto.randomBytes(16).toString('hex'),
    LOG_LEVEL: 'warn',
  };
  // Enough profiles that every phase asks pages and profiles nobody asked before (in-process cache misses).
  const profiles = 3 * N + 20;
  console.log(`Seeding ${profiles} profiles into PGlite at ${dataDir}...`);
  const seeded = await (async () => {
    const runtime = await openRuntime(loadEnv(env));
    try {
      await seedGeo(runtime.ctx);
      const passwordHash = await hashPassword(PASSWORD);
      const ids: number[] = [];
      const names: string[] = [];
      const cities = [LONDON, MANCHESTER, BERLIN];
      for (let i = 0; i < profiles; i++) {
        const a = await createAdvertiser(runtime.ctx, { city: cities[i % 3], passwordHash });
        ids.push(a.account.id);
        names.push(a.account.username);
      }
      return { ids, names };
    } finally {
      await runtime.close();
    }
  })();

  const redis = await startOwnRedis();
  const proxy = await countingProxy(redis.port);
  const server = await startApp({
    entry: 'src/server/test/server-process.ts',
    env: { ...env, REDIS_URL: proxy.url },
    output: 'stderr',
    healthTimeoutMs: 120_000,
  });
  const base = server.baseUrl;

  let next = 0;
  /** A profile (and its owner's name, for a search and a sign-in) no phase asked before. */
  const fresh = () => {
    const i = next++ % profiles;
    return { id: seeded.ids[i], name: seeded.names[i] };
  };
  const places = [
    { country: 'united-kingdom' },
    { country: 'united-kingdom', place: 'london' },
    { country: 'united-kingdom', place: 'manchester' },
    { country: 'germany' },
    { country: 'germany', place: 'berlin' },
  ];
  let pageAsk = 0;
  const post = (url: string, body: unknown) =>
    fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const ask: Record<Kind, () => Promise<Response>> = {
    // Alternately a search for one profile's name and a list page of a place, with an age range no
    // request asked before: every one misses the in-process cache, asks Redis's, then the database.
    'directory page': () => {
      const k = pageAsk++;
      if (k % 2 === 0) return post('/api/directory/search?page=1', { q: fresh().name });
      const j = k >> 1;
      const filters = { age_min: 18 + (j % 40), age_max: 60 + (Math.floor(j / 40) % 40) };
      return post('/api/directory/getDirectory?page=1', { ...places[j % places.length], filters });
    },
    profile: () => fetch(`${base}/api/getProfile/${fresh().id}`),
    'sign-in': () => post('/api/auth/login', { login: fresh().name, password: PASSWORD }),
    readiness: () => fetch(`${base}/api/health/ready`),
  };
  const timed = async (kind: Kind): Promise<Sample> => {
    const began = performance.now();
    const res = await ask[kind]();
    await res.arrayBuffer();
    return { kind, ms: performance.now() - began, status: res.status };
  };
  /** `n` requests of each kind, turn by turn. */
  const phase = async (n: number) => {
    const samples: Sample[] = [];
    for (let i = 0; i < n; i++) for (const kind of KINDS) samples.push(await timed(kind));
    return samples;
  };
  const waitForReady = async () => {
    const began = performance.now();
    while ((await fetch(`${base}/api/health/ready`)).status !== 200) {
      if (performance.now() - began > 30_000) throw new Error('not ready 30 s after Redis answered again');
      await sleep(20);
    }
    return performance.now() - began;
  };

  const rows: Array<{ phase: string; samples: Sample[] }> = [];
  const notes: string[] = [];
  try {
    await phase(5); // warm-up: PGlite's plans, the JIT
    rows.push({ phase: 'Redis answering', samples: await phase(N) });

    // Hang 1: readiness is the first to ask.
    const sent = proxy.commands.length;
    redis.pause();
    const firstReady = await timed('readiness');
    const hung = await phase(N);
    rows.push({ phase: 'Redis hung', samples: hung });
    await sleep(2 * PROBE_INTERVAL_MS);
    const whileHung = proxy.commands.slice(sent);
    const hungFor = hung.reduce((s, x) => s + x.ms, 0) + 2 * PROBE_INTERVAL_MS;
    redis.resume();
    const recovered = await waitForReady();
    rows.push({ phase: 'Redis answering again', samples: await phase(N) });

    // Hang 2: a page is the first to ask (a profile: its view is counted in Redis).
    redis.pause();
    const firstPage = await timed('profile');
    const readyAfter = await timed('readiness');
    redis.resume();
    await waitForReady();

    const byName = (names: string[]) =>
      Object.entries(names.reduce<Record<string, number>>((m, n) => ((m[n] = (m[n] ?? 0) + 1), m), {}))
        .map(([n, c]) => `${c} ${n}`)
        .join(', ') || 'nothing';
    notes.push(
      `readiness as the first request after SIGSTOP: ${firstReady.status} in ${firstReady.ms.toFixed(0)} ms (goal < 1000 ms)`,
      `a profile as the first request after SIGSTOP: ${firstPage.status} in ${firstPage.ms.toFixed(0)} ms (the one limit, ${COMMAND_TIMEOUT_MS} ms), readiness right after it: ${readyAfter.status} in ${readyAfter.ms.toFixed(1)} ms`,
      `sent to Redis from SIGSTOP to SIGCONT (${(hungFor / 1000).toFixed(1)} s, ${4 * N} requests): ${byName(whileHung)} (the readiness check that waited out the limit, then one probe)`,
      `readiness 200 again ${recovered.toFixed(0)} ms after SIGCONT (a PING every ${PROBE_INTERVAL_MS} ms)`,
    );
  } finally {
    redis.resume();
    await server.stop();
    await proxy.close();
    await redis.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const header =
    '| phase | request | p50 ms | p99 ms | max ms | answers |\n| ----- | ------- | ------ | ------ | ------ | ------- |';
  const lines = rows.flatMap(({ phase: name, samples }) =>
    KINDS.map((kind) => {
      const mine = samples.filter((s) => s.kind === kind);
      const ms = mine.map((s) => s.ms);
      const statuses = Object.entries(
        mine.reduce<Record<number, number>>((m, s) => ((m[s.status] = (m[s.status] ?? 0) + 1), m), {}),
      )
        .map(([code, count]) => `${count} × ${code}`)
        .join(', ');
      const f = (v: number) => (Math.round(v * 10) / 10).toString();
      return `| ${name} | ${kind} | ${f(percentile(ms, 50))} | ${f(percentile(ms, 99))} | ${f(Math.max(...ms))} | ${statuses} |`;
    }),
  );
  const hungRows = rows.find((r) => r.phase === 'Redis hung')!.samples;
  const overGoal = KINDS.filter(
    (kind) =>
      percentile(
        hungRows.filter((x) => x.kind === kind).map((x) => x.ms),
        99,
      ) >= 100,
  );
  notes.unshift(
    overGoal.length
      ? `goal p99 < 100 ms while Redis is hung: missed by ${overGoal.join(', ')}`
      : 'goal p99 < 100 ms while Redis is hung: met by every request',
  );
  const load = os.loadavg()[0].toFixed(1);
  const block = [
    BEGIN,
    '',
    `${new Date().toISOString().slice(0, 10)}, ${os.availableParallelism()} cores, load average ${load}; ${N} requests of each kind per phase, one at a time, PGlite (\`npm run bench -- --only-redis-hang${N === 100 ? '' : ` --requests ${N}`}\`). Command limit ${COMMAND_TIMEOUT_MS} ms, probe every ${PROBE_INTERVAL_MS} ms.`,
    '',
    header,
    ...lines,
    '',
    ...notes.map((n) => `- ${n}`),
    '',
    END,
  ].join('\n');
  console.log(block);
  if (!args['keep-readme']) await writeReadmeBlock(BEGIN, END, block);
}

await main();
