// No card number is stored anywhere (issue 21 item 3, issue 42 item 4; decision 0810). Every operation of
// /api/docs.json gets card numbers written every way a person or a keyboard writes them (no-break, thin
// and zero-width spaces, en and em dashes, dots, slashes, underscores, tabs, newlines, double spaces,
// full-width digits... test/card-writings.ts) in each of its string fields (body, query string, path) and
// in a query parameter it does not know, each time inside a request otherwise shaped by the operation's
// own schema, as a visitor and as an admin (who passes every guard); the User-Agent, Host,
// X-Forwarded-For and X-Request-Id headers carry them too. Then the database (every column of every table: the jobs, the
// sessions and the search index among them), the mail outbox, the Redis keys and values of this test
// (its limiter prefix and the answer cache) and every log line are searched for the numbers' digits, in
// any writing: none is found. Each request that carries one is refused, and the admin is told why, on
// the field that held it; a User-Agent is stored with the number's digits scrubbed. And what holds no
// card number (phone numbers from "+", price lists, dates, times, UUIDs, order and payment ids, numbers
// that fail the Luhn check) is refused by no operation.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { queryRows } from '../db/client';
import { hashPassword } from '../lib/password';
import { runDueJobs } from '../lib/jobs';
import { RedisRateLimiter } from '../lib/rate-limiter';
import { jobHandlers } from '../tasks';
import { CARD_WRITINGS, card } from './card-writings';
import { createAdvertiser, createSession, seedGeo } from './factories';
import { backend, createTestApp } from './helpers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// The guard is the subject, not the database: one run is enough, on PostgreSQL when the run has it (CI),
// else on PGlite (as the fuzz suite does). Both databases store the same rows from the same requests.
const HERE = !(process.env.TEST_DATABASE_URL && backend === 'pglite');
const logged: string[] = [];
// TRUST_PROXY: the client address is read from X-Forwarded-For, as behind a proxy that passes it on.
// RATE_LIMIT_SCALE: the routes' own limits do not stop the sweep's thousands of calls before the guard.
const t = await createTestApp(
  { LOG_LEVEL: 'trace', TRUST_PROXY: 'true', RATE_LIMIT_SCALE: '1000' },
  { logStream: { write: (line: string) => logged.push(line) } },
);
// Redis keys of this test's own (never flushed: the Redis is shared); the answer cache's are under its build.
const redisPrefix = `rl-sweep-${crypto.randomBytes(6).toString('hex')}:`;
await t.ctx.limiter.close();
t.ctx.limiter = new RedisRateLimiter(REDIS_URL, redisPrefix);
afterAll(async () => {
  const redis = (t.ctx.limiter as RedisRateLimiter).redis;
  for await (const keys of redis.scanStream({ match: `${redisPrefix}*`, count: 500 }) as AsyncIterable<string[]>)
    if (keys.length) await redis.del(...keys);
  await t.close();
});
await seedGeo(t.ctx);
const PASSWORD = 'a long sweep passphrase 9';
const owner = (await createAdvertiser(t.ctx, { passwordHash: await hashPassword(PASSWORD) })).account;
const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account;

// ---------------------------------------------------------------- the numbers

/** Random card numbers of five brands, new each run (none of them a list of numbers by chance). */
const CARDS = [card('4', 16), card('53', 16), card('37', 15), card('6011', 16), card('36', 14)];
/** Writings that fit a header value (visible ASCII, spaces and tabs). */
const HEADER_WRITINGS = CARD_WRITINGS.filter(([, write]) => /^[\x20-\x7e\t]*$/.test(write(CARDS[0])));

/** The text as a person reads it, digits only (full-width and Arabic-Indic digits as 0-9): how the scans read. */
const digitsOf = (text: string) =>
  text
    .normalize('NFKC')
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660))
    .replace(/[^0-9]/g, '');

// ---------------------------------------------------------------- requests shaped by the document

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minItems?: number;
  format?: string;
};

const docs = (await t.app.inject({ method: 'GET', url: '/api/docs.json' })).json() as {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
interface Operation {
  parameters?: Array<{ in: string; name: string; schema: Schema }>;
  requestBody?: { content?: Record<string, { schema: Schema }> };
}

function resolve(s: Schema | undefined): Schema {
  let out = s ?? {};
  for (let i = 0; out.$ref && i < 10; i++) out = docs.components?.schemas?.[out.$ref.split('/').pop()!] ?? {};
  if (out.allOf)
    out = out.allOf.map(resolve).reduce((a, b) => ({ ...a, ...b, patterns: [...list(a), ...list(b)] }), out);
  return out;
}
const list = (s: Schema) => [...((s.patterns as string[] | undefined) ?? []), ...(s.pattern ? [s.pattern] : [])];
const typeOf = (s: Schema) => [s.type].flat().find((x) => x && x !== 'null');
/** The alternatives of a union, else the schema itself. */
const alternatives = (s: Schema): Schema[] => {
  const r = resolve(s);
  const alts = r.oneOf ?? r.anyOf;
  return alts ? alts.map(resolve).filter((a) => typeOf(a) !== undefined || a.properties) : [r];
};

function fits(s: Schema, text: string): boolean {
  if (s.minLength !== undefined && [...text].length < s.minLength) return false;
  if (s.maxLength !== undefined && [...text].length > s.maxLength) return false;
  return list(s).every((p) => {
    try {
      return new RegExp(p, 'u').test(text);
    } catch {
      return true;
    }
  });
}

let unique = 0;
/** A value the schema accepts, as far as the document says. */
function sample(schema: Schema, name = ''): unknown {
  const s = alternatives(schema)[0];
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = typeOf(s) ?? (s.properties ? 'object' : undefined);
  if (type === 'object') {
    return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v, k)]));
  }
  if (type === 'array') return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(s.items ?? {}, name));
  if (type === 'integer' || type === 'number') {
    const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    return /id$/.test(name) ? owner.id : Math.min(Math.max(min, 1), s.maximum ?? Infinity);
  }
  if (type === 'boolean') return true;
  if (type === 'string') {
    unique += 1;
    const tries = [
      s.format === 'email' || /email/.test(name) ? `sweep${unique}@example.test` : `sweep words ${unique}`,
      `sweep${unique}`,
      '1990-01-01',
      '09:00',
      'https://example.test/a',
      '+44 20 7946 0000',
      'GB',
      'en',
      'a long sweep passphrase 9',
    ];
    return tries.find((x) => fits(s, x)) ?? 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
  return null;
}

/** Whether a string schema can hold free text (an enum, a constant or a number cannot). */
const holdsText = (s: Schema) => !s.enum && s.const === undefined && typeOf(s) === 'string';

/** Every string field of an object schema, as a path and its schema (nested objects and arrays too). */
function stringFields(schema: Schema, at: string[] = []): Array<[string[], Schema]> {
  const s = resolve(schema);
  const type = typeOf(s) ?? (s.properties ? 'object' : undefined);
  if (type === 'string') return [[at, s]];
  if (type === 'array') return stringFields(s.items ?? {}, [...at, '0']);
  if (type === 'object' && at.length < 4)
    return Object.entries(s.properties ?? {}).flatMap(([k, v]) => stringFields(alternatives(v)[0], [...at, k]));
  return [];
}

function setAt(value: unknown, at: string[], v: unknown): unknown {
  if (!at.length) return v;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>;
  copy[at[0]] = setAt(copy[at[0]], at.slice(1), v);
  return copy;
}

interface Call {
  label: string;
  method: string;
  url: string;
  payload?: unknown;
  /** The field the guard should name. */
  field: string;
  exempt: boolean;
  /** The field's schema would take the text: without the guard, the request could be accepted. */
  fits: boolean;
}

/**
 * Requests shaped by each operation's schema with `text(field)` in one field at a time: every string
 * field of the path, the query string and the body, and a query parameter no operation knows (`note`).
 */
function calls(texts: string[]): Call[] {
  const out: Call[] = [];
  for (const [route, ops] of Object.entries(docs.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const exempt = route.startsWith('/api/payment/webhook/');
      const params = (op.parameters ?? []).filter((p) => p.in === 'path');
      const query = (op.parameters ?? []).filter((p) => p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const pathValues = Object.fromEntries(params.map((p) => [p.name, String(sample(p.schema, p.name))]));
      const queryValues = Object.fromEntries(query.map((p) => [p.name, String(sample(p.schema, p.name))]));
      const bodies = bodySchema ? alternatives(bodySchema) : [undefined];
      const build = (pv: Record<string, string>, qv: Record<string, string>) => {
        const p = route.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(pv[n]));
        const q = new URLSearchParams(qv).toString();
        return q ? `${p}?${q}` : p;
      };
      const add = (field: string, url: string, payload: unknown, fitting: boolean) =>
        out.push({
          label: `${method.toUpperCase()} ${route} [${field}]`,
          method,
          url,
          payload,
          field,
          exempt,
          fits: fitting,
        });
      const body0 = bodies[0] && sample(bodies[0]);
      for (const text of texts) {
        // Any operation: a query parameter it does not know, which a log line or a cache key could still show.
        add('note', build(pathValues, { ...queryValues, note: text }), body0, true);
        for (const p of params) {
          const s = resolve(p.schema);
          if (holdsText(s)) add(p.name, build({ ...pathValues, [p.name]: text }, queryValues), body0, fits(s, text));
        }
        for (const p of query) {
          const s = resolve(p.schema);
          if (holdsText(s)) add(p.name, build(pathValues, { ...queryValues, [p.name]: text }), body0, fits(s, text));
        }
        for (const body of bodies) {
          if (!body) continue;
          const base = sample(body);
          for (const [at, s] of stringFields(body))
            if (holdsText(s)) add(at.join('.'), build(pathValues, queryValues), setAt(base, at, text), fits(s, text));
        }
      }
    }
  }
  return out;
}

const send = (call: Call, session: Awaited<ReturnType<typeof createSession>> | null) =>
  t.app.inject({
    method: call.method.toUpperCase() as 'GET',
    url: call.url,
    ...(call.payload !== undefined && call.method !== 'get' ? { payload: call.payload as object } : {}),
    ...(session ?? {}),
  });

const CARD_REFUSAL = "Card numbers can't be posted here.";

// ---------------------------------------------------------------- where a number could have gone

/** The tables whose rows hold these digits, in any writing (digits of any width, anything between them). */
async function tablesHolding(digits: string): Promise<string[]> {
  const tables = await queryRows<{ name: string }>(
    t.ctx.db,
    sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const [hit] = await queryRows<{ n: string }>(
      t.ctx.db,
      sql`select count(*) as n from ${sql.identifier(name)} r
          where regexp_replace(translate(r::text, '０１２３４５６７８９٠١٢٣٤٥٦٧٨٩', '01234567890123456789'), '[^0-9]', '', 'g')
            like ${`%${digits}%`}`,
    );
    if (Number(hit.n) > 0) found.push(name);
  }
  return found;
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((e) => (e.isFile() ? [path.join(e.parentPath, e.name)] : []));
}

/** Every mail of the outbox as its reader sees it (the .eml decoded) and as the .json next to it holds it. */
async function outboxText(): Promise<string[]> {
  const out: string[] = [];
  for (const file of filesUnder(path.join(t.ctx.env.dataDir, 'outbox'))) {
    const raw = fs.readFileSync(file);
    if (file.endsWith('.eml')) {
      const mail = await simpleParser(raw);
      out.push([mail.subject, mail.text, mail.html || '', ...[...mail.headers.values()].map(String)].join('\n'));
    } else out.push(raw.toString('utf8'));
  }
  return out;
}

async function redisText(): Promise<string[]> {
  const redis = (t.ctx.limiter as RedisRateLimiter).redis;
  const parts: string[] = [];
  for (const match of [`${redisPrefix}*`, `answer:${t.ctx.buildId}:*`]) {
    for await (const keys of redis.scanStream({ match, count: 500 }) as AsyncIterable<string[]>) {
      for (const key of keys) {
        parts.push(key);
        if ((await redis.type(key)) === 'string')
          parts.push(((await redis.getBuffer(key)) ?? Buffer.alloc(0)).toString('utf8'));
      }
    }
  }
  return parts;
}

// ---------------------------------------------------------------- the sweep

describe.runIf(HERE)('card numbers sent to every operation of the API, written every way', () => {
  it('are refused, and afterwards are in no table, mail, job, Redis key or value, or log line', async () => {
    let next = 0;
    const texts = CARD_WRITINGS.map(([, write]) => write(CARDS[next++ % CARDS.length]));
    const all = calls(texts);
    const operations = Object.values(docs.paths).flatMap((ops) => Object.keys(ops)).length;
    expect(operations).toBeGreaterThan(80);
    expect(new Set(all.map((c) => c.label.split(' [')[0])).size).toBe(operations);
    expect(all.filter((c) => c.fits).length).toBeGreaterThan(150 * CARD_WRITINGS.length);
    const admin_ = await createSession(t.ctx, admin.id);
    const accepted: string[] = [];
    const unexplained: string[] = [];
    let told = 0;
    for (const [n, call] of all.entries()) {
      // The admin sends every one; a visitor every fifth (a visitor stops at the sign-in guards of most).
      for (const who of n % 5 ? ['admin'] : ['admin', 'visitor']) {
        const res = await send(call, who === 'admin' ? admin_ : null);
        if (res.statusCode < 400)
          accepted.push(`${who} ${call.label} ${JSON.stringify(call.url)} -> ${res.statusCode}`);
        // A phone field is no card field (its own rule refuses what is not a phone number).
        if (who !== 'admin' || call.exempt || res.statusCode === 429 || /phone|mobile/.test(call.field)) continue;
        const errors = res.statusCode === 422 ? (res.json().errors as Record<string, string[]>) : {};
        if (errors[call.field]?.includes(CARD_REFUSAL)) told += 1;
        else
          unexplained.push(`${call.label} ${JSON.stringify(call.url)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }

    // Headers: a User-Agent is stored scrubbed (the sign-in is not refused for it); a Host or forwarded
    // address that holds a number is refused.
    for (const [name, write] of HEADER_WRITINGS) {
      const agent = `Mozilla/5.0 (${write(CARDS[next++ % CARDS.length])}) Gecko/20100101`;
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'user-agent': agent },
        payload: { login: owner.username, password: PASSWORD },
      });
      expect.soft(login.statusCode, `sign-in with a User-Agent of ${name}`).toBe(200);
      // A request id from the proxy is written on every log line: one that holds a number is not kept.
      const id = write(CARDS[next++ % CARDS.length]);
      const traced = await t.app.inject({
        method: 'GET',
        url: '/api/directory/countries',
        headers: { 'x-request-id': id },
      });
      expect.soft(traced.headers['x-request-id'], `X-Request-Id of ${name}`).not.toBe(id);
      for (const [header, field, url] of [
        ['x-forwarded-for', 'x-forwarded-for', '/api/directory/countries'],
        ['host', 'host', '/api/directory/countries'],
      ]) {
        const res = await t.app.inject({
          method: 'GET',
          url,
          headers: { [header]: write(CARDS[next++ % CARDS.length]) },
        });
        if (res.statusCode < 400) accepted.push(`${header} of ${name} -> ${res.statusCode}`);
        else if (!res.json().errors?.[field]?.includes(CARD_REFUSAL))
          unexplained.push(`${header} of ${name} -> ${res.body}`);
        else told += 1;
      }
    }
    const agents = await queryRows<{ ua: string }>(
      t.ctx.db,
      sql`select user_agent as ua from sessions where account_id = ${owner.id}`,
    );
    expect.soft(agents.length, 'sessions begun with a card number in the User-Agent').toBe(HEADER_WRITINGS.length);
    for (const { ua } of agents) {
      expect.soft(ua).toMatch(/^Mozilla\/5\.0 \([^0-9]*#[^0-9]*\) Gecko\/20100101$/);
      expect
        .soft(
          CARDS.some((digits) => digitsOf(ua).includes(digits)),
          ua,
        )
        .toBe(false);
    }

    expect.soft(accepted, 'requests that carried a card number and were not refused').toEqual([]);
    // The admin passes every guard: each refusal says why, on the field.
    expect.soft(unexplained).toEqual([]);
    expect.soft(told).toBeGreaterThan(150 * CARD_WRITINGS.length);

    // What a request left for later: the mails of the jobs it queued are written before the outbox is read.
    while ((await runDueJobs(t.ctx, jobHandlers, { log: () => undefined })) > 0);
    for (const digits of CARDS) expect.soft(await tablesHolding(digits), `tables holding ${digits}`).toEqual([]);
    const mails = await outboxText();
    const redis = await redisText();
    expect(logged.join('\n')).toContain('/api/directory/search');
    expect(redis.length).toBeGreaterThan(0);
    for (const digits of CARDS) {
      const holding = (texts: string[]) => texts.filter((x) => digitsOf(x).includes(digits));
      expect.soft(holding(mails), `mails holding ${digits}`).toEqual([]);
      expect.soft(holding(redis), `Redis keys and values holding ${digits}`).toEqual([]);
      expect.soft(holding(logged), `log lines showing ${digits}`).toEqual([]);
    }
  }, 900_000);
});

describe.runIf(HERE)('what holds no card number', () => {
  it('is refused by no operation, in no field', async () => {
    const luhnFails = (d: string) => d.slice(0, -1) + String((Number(d.at(-1)) + 5) % 10);
    const texts = [
      '+44 7700 900123',
      '+1 (555) 010-0199',
      'call +49 30 1234567 or 0171 1234567',
      '100/150/200',
      '100-150-200-250',
      '1h 200 / 2h 350 / night 1000, 2500 3000 3500 4000',
      '2026-12-07',
      '07.12.2026',
      'Mon-Fri 21:00-23:30, 22:00-04:00',
      'since 2019-2026',
      crypto.randomUUID(),
      `k_${crypto.randomUUID()}`,
      'pay_123456',
      'order:98765',
      luhnFails(card('4', 16)),
      luhnFails(card('37', 15)),
      luhnFails(card('6011', 19)),
    ];
    const refused: string[] = [];
    let answered = 0;
    for (const call of calls(texts)) {
      // A session of its own for each call: what it does (a sign-out, a password change) ends no other.
      const res = await send(call, await createSession(t.ctx, admin.id));
      const errors = res.statusCode === 422 ? (res.json().errors as Record<string, string[]> | undefined) : undefined;
      if (Object.values(errors ?? {}).some((list) => list.includes(CARD_REFUSAL)))
        refused.push(`${call.label} ${JSON.stringify(call.url)} ${JSON.stringify(call.payload)}`);
      if (res.statusCode !== 401) answered += 1;
    }
    expect(refused).toEqual([]);
    // Past the sign-in guards, so past the card guard's hook.
    expect(answered).toBeGreaterThan(150 * texts.length);
  }, 900_000);
});
