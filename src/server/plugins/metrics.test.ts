// Issue 45 item 3 (decision 1019): /metrics behind its token, in a format promtool accepts, whose counters
// move with the traffic; a request id on every answer, the trusted proxy's when it gives one.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../lib/jobs';
import { injectClient } from '../test/api-client';
import { as } from '../test/as';
import { createAdvertiser, seedGeo } from '../test/factories';
import { backend, createTestApp, type TestApp } from '../test/helpers';
import { fundedAdvertiser, sandboxToken } from '../test/money';

const TOKEN = 'metrics-token-for-tests';
const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => fs.existsSync(p));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};

/** The value of one series (`name{labels}`), 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  it('is refused without the token, and absent without METRICS_TOKEN', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-wrong-token', `Basic ${TOKEN}`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('directory_');
    }
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('counts requests by route pattern, method and status, and reads the job queue when scraped', async () => {
    const before = await scrape();
    const route = 'route="/api/directory/countries",method="GET",status="200"';
    const countBefore = value(before, `directory_http_request_duration_seconds_count{${route}}`);
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/directory/countries' })).statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/no/such/thing' });
    await enqueue(t.ctx.db, 'metrics.test', {}, new Date(Date.now() - 60_000));
    const after = await scrape();
    expect(value(after, `directory_http_request_duration_seconds_count{${route}}`)).toBe(countBefore + 3);
    // A path that names no route is one series, never the raw path.
    expect(after).toContain('route="(unmatched)"');
    expect(after).not.toContain('/api/no/such/thing');
    expect(value(after, 'directory_jobs_due')).toBeGreaterThanOrEqual(1);
    // The directory's answer cache: the first countries answer was made, the next ones served from memory.
    expect(value(after, 'directory_answer_cache_lookups_total{result="made"}')).toBeGreaterThanOrEqual(1);
    expect(
      value(after, 'directory_answer_cache_lookups_total{result="memory"}') -
        value(before, 'directory_answer_cache_lookups_total{result="memory"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(value(after, 'directory_jobs_oldest_due_seconds')).toBeGreaterThanOrEqual(59);
    expect(after).toContain('directory_process_cpu_user_seconds_total');
    if (backend === 'postgres') expect(after).toMatch(/directory_db_pool_connections\{pool="main",state="idle"\} \d+/);
  });

  it("counts payments and providers' notifications by provider and outcome", async () => {
    await seedGeo(t.ctx);
    const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
    const a = await fundedAdvertiser(t.ctx, admin, 0);
    const before = await scrape();
    const credited = 'directory_payments_total{method="card",provider="sandbox",outcome="credited"}';
    const card_token = await sandboxToken(injectClient(t.app), '4242 4242 4242 4242');
    const paid = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      purpose: 'load',
      amount: 2000,
      idempotency_key: crypto.randomUUID(),
      card_token,
    });
    expect(paid.json().data).toMatchObject({ status: 'loaded' });
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/payment/webhook/sandbox',
      headers: { 'content-type': 'application/json' },
      payload: '{"id":"evt_1","type":"charge.succeeded"}',
    });
    expect(forged.statusCode).toBeGreaterThanOrEqual(400);
    await t.app.inject({ method: 'POST', url: '/api/payment/webhook/made-up-name', payload: '{}' });
    const after = await scrape();
    expect(value(after, credited)).toBe(value(before, credited) + 1);
    const refused = `directory_webhooks_total{provider="sandbox",outcome="refused_${forged.statusCode}"}`;
    expect(value(after, refused)).toBe(value(before, refused) + 1);
    // A name no provider has is one label, never the caller's text.
    expect(after).not.toContain('made-up-name');
  });

  it.runIf(!!promtool || !!process.env.CI)('is valid Prometheus exposition (promtool check metrics)', async () => {
    expect(promtool, 'promtool (Debian package prometheus) is installed by .ci/run').toBeDefined();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'metrics-')), 'scrape.txt');
    fs.writeFileSync(file, await scrape());
    const check = spawnSync('sh', ['-c', `${promtool} check metrics < ${file}`], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });
});

describe('request ids', () => {
  it('answers each request with an id of its own, and takes a trusted proxy’s', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    const b = await t.app.inject({
      method: 'GET',
      url: '/api/health/live',
      headers: { 'x-request-id': 'from-client-1' },
    });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // Not behind a trusted proxy: a client's id is not taken.
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    const proxied = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const res = await proxied.app.inject({
        method: 'GET',
        url: '/api/health/live',
        headers: { 'x-request-id': 'caddy-4f1e2d' },
      });
      expect(res.headers['x-request-id']).toBe('caddy-4f1e2d');
      const odd = await proxied.app.inject({
        method: 'GET',
        url: '/api/health/live',
        headers: { 'x-request-id': 'x'.repeat(65) },
      });
      expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await proxied.close();
    }
  });
});

describe('request log lines', () => {
  it('carry the request id of the answer, and neither the address nor an email of the visitor', async () => {
    const lines: string[] = [];
    const logged = await createTestApp({ LOG_LEVEL: 'debug' }, { logStream: { write: (l: string) => lines.push(l) } });
    try {
      const res = await logged.app.inject({
        method: 'GET',
        url: '/api/directory/countries?email=someone%40example.test&x=other@example.test',
        remoteAddress: '203.0.113.77',
      });
      const id = res.headers['x-request-id'];
      const mine = lines.map((l) => JSON.parse(l) as { reqId?: string }).filter((l) => l.reqId === id);
      expect(mine.length).toBeGreaterThanOrEqual(2); // incoming request, request completed
      const text = lines.join('\n');
      expect(text).not.toContain('203.0.113.77');
      expect(text).not.toMatch(/example\.test/);
    } finally {
      await logged.close();
    }
  });
});
