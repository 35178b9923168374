// Benchmark of money under the mixed load of issue 21 (item 2): the very mix the test
// src/server/modules/money/mixed-load.test.ts runs (src/server/test/money-mix.ts: cart edits, balance
// payments, card loads with their settlement, BTCPay webhooks, admin adjustments and transfers), from 50
// clients at once over HTTP, against the real server in a child process (src/server/test/server-process.ts:
// the app and its worker), on PGlite and on PostgreSQL. Figures: payments per second (makePayment answers
// of every method, refusals included, over the measured run's wall time) with their p50 and p99, the p99
// of every request, and what must be 0: 5xx answers, failed connections, keys answering otherwise when
// sent again, and problems in the money tables afterwards (moneyProblems). A short run with other keys
// warms the server up first. The figures go into bench/README.md with the date and the machine's load.
//
//   npm run bench:money                               # both backends, 50 clients, 10 operations each
//   npm run bench:money -- --backends pglite --ops 4 --keep-readme
//
// Each run starts on a new database: a PGlite directory under the system's temporary directory, or a
// scratch database next to $BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), dropped after.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startApp } from '../scripts/app-server';
import { openRuntime } from '../src/server/bootstrap';
import { loadEnv } from '../src/server/env';
import { httpClient } from '../src/server/test/api-client';
import { startBtcpayStandIn } from '../src/server/test/btcpay-stand-in';
import { BERLIN, createAdvertiser, createSession, MANCHESTER, seedGeo } from '../src/server/test/factories';
import { createScratchDatabase } from '../src/server/test/helpers';
import { fundedAdvertiser, moneyProblems } from '../src/server/test/money';
import { mixEnv, percentile, replayMix, runMix, type Call } from '../src/server/test/money-mix';
import { writeReadmeBlock } from './readme';

const { values: args } = parseArgs({
  options: {
    backends: { type: 'string', default: 'pglite,postgres' },
    clients: { type: 'string', default: '50' },
    advertisers: { type: 'string', default: '5' },
    ops: { type: 'string', default: '10' },
    'keep-readme': { type: 'boolean', default: false },
  },
});
const CLIENTS = Number(args.clients);
const ADMIN_CLIENTS = Math.max(1, Math.round(CLIENTS / 10));
const ADVERTISERS = Number(args.advertisers);
const OPS = Number(args.ops);
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// bench/README.md holds the latest figures between these lines.
const BEGIN = '<!-- money-bench:begin -->';
const END = '<!-- money-bench:end -->';

interface Row {
  backend: string;
  requests: number;
  payments: number;
  paid: number;
  seconds: number;
  paymentP50: number;
  paymentP99: number;
  requestP99: number;
  errors5xx: number;
  failedConnections: number;
  replayed: number;
  mismatches: number;
  problems: number;
}

async function bench(backend: 'pglite' | 'postgres'): Promise<Row> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'money-bench-'));
  const scratch = backend === 'postgres' ? await createScratchDatabase(PG_ADMIN, 'money_bench') : null;
  const btcpay = await startBtcpayStandIn();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: crypto.randomBytes(16).toString('hex'),
    LOG_LEVEL: 'warn',
    ...mixEnv(btcpay),
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  };
  // The advertisers and sessions, written before the server holds the database (PGlite: one process).
  const runtime = await openRuntime(loadEnv(env));
  const setup = await (async () => {
    const { ctx } = runtime;
    await seedGeo(ctx);
    const admin = (await createAdvertiser(ctx, { role: 'admin' })).account.id;
    const advertisers = [];
    for (let i = 0; i < ADVERTISERS; i++) advertisers.push(await fundedAdvertiser(ctx, admin, 3000));
    return { admin: await createSession(ctx, admin), advertisers };
  })();
  await runtime.close();

  const server = await startApp({ entry: 'src/server/test/server-process.ts', env, output: 'stderr' });
  try {
    const api = httpClient(server.baseUrl, CLIENTS);
    const mix = (seed: number, opsPerClient: number) =>
      runMix({
        api,
        advertisers: setup.advertisers,
        admin: setup.admin,
        btcpay,
        clients: CLIENTS,
        adminClients: ADMIN_CLIENTS,
        opsPerClient,
        seed,
        cities: [MANCHESTER.id, BERLIN.id],
      });
    const seed = Date.now() % 100_000;
    await mix(seed, 2);
    console.log(`${backend}: warmed up; measuring ${CLIENTS} clients x ${OPS} operations...`);
    const run = await mix(seed + 1, OPS);
    const replay = await replayMix(api, run, CLIENTS);
    api.close();
    const payments = run.calls.filter((c) => c.kind.startsWith('pay'));
    const paid = payments.filter((c) => c.status === 200);
    const bad = (calls: Call[]) => calls.filter((c) => c.status >= 500).length;
    const row = {
      backend,
      requests: run.calls.length,
      payments: payments.length,
      paid: paid.length,
      seconds: run.ms / 1000,
      paymentP50: percentile(
        payments.map((c) => c.ms),
        50,
      ),
      paymentP99: percentile(
        payments.map((c) => c.ms),
        99,
      ),
      requestP99: percentile(
        run.calls.map((c) => c.ms),
        99,
      ),
      errors5xx: bad(run.calls) + bad(replay.calls),
      failedConnections: [...run.calls, ...replay.calls].filter((c) => c.status === 0).length,
      replayed: replay.calls.length,
      mismatches: replay.mismatches.length,
      problems: 0,
    };
    for (const c of [...run.calls, ...replay.calls].filter((c) => c.status >= 500 || c.status === 0).slice(0, 5))
      console.log(`  ${c.kind} ${c.url} -> ${c.status} ${JSON.stringify(c.answer)}`);
    for (const m of replay.mismatches.slice(0, 5)) console.log(`  replay differs: ${JSON.stringify(m)}`);
    await server.stop();
    const after = await openRuntime(loadEnv(env));
    const problems = await moneyProblems(after.ctx.db);
    await after.close();
    for (const p of problems.slice(0, 5)) console.log(`  ${p}`);
    return { ...row, problems: problems.length };
  } finally {
    await server.stop();
    await btcpay.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const loadBefore = os.loadavg();
const rows: Row[] = [];
for (const backend of args.backends!.split(',') as Array<'pglite' | 'postgres'>) {
  const row = await bench(backend);
  rows.push(row);
  console.log(JSON.stringify(row));
}
const loadAfter = os.loadavg();

const header = [
  'backend',
  'requests',
  'payments',
  'of which 200',
  'seconds',
  'payments/s',
  'payment p50 ms',
  'payment p99 ms',
  'request p99 ms',
  '5xx',
  'failed connections',
  'keys replayed',
  'replays that differ',
  'money problems',
];
const table = [
  `| ${header.join(' | ')} |`,
  `|${header.map(() => '---').join('|')}|`,
  ...rows.map(
    (r) =>
      `| ${[
        r.backend,
        r.requests,
        r.payments,
        r.paid,
        r.seconds.toFixed(1),
        (r.payments / r.seconds).toFixed(1),
        Math.round(r.paymentP50),
        Math.round(r.paymentP99),
        Math.round(r.requestP99),
        r.errors5xx,
        r.failedConnections,
        r.replayed,
        r.mismatches,
        r.problems,
      ].join(' | ')} |`,
  ),
].join('\n');
const block = [
  BEGIN,
  `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average ${loadBefore[0].toFixed(1)} ` +
    `before and ${loadAfter[0].toFixed(1)} after (other processes on the machine slow every column down); ` +
    `${CLIENTS} clients (${ADMIN_CLIENTS} admins) on ${ADVERTISERS} advertisers, ${OPS} operations each ` +
    `(\`npm run bench:money${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`).`,
  '',
  table,
  END,
].join('\n');
console.log(`\n${block}`);
if (!args['keep-readme']) await writeReadmeBlock(BEGIN, END, block);
