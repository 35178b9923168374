// No card number is stored anywhere (issue 21 item 3, decision 0810). Every operation of /api/docs.json
// gets card numbers in each of its string fields (body, query string, path), each time inside a request
// that is otherwise shaped by the operation's own schema, as a visitor and as an admin (who passes every
// guard); then the database (every column of every table: the jobs table among them), the mail and text
// outbox, the Redis keys and values of this test (limiter and answer cache) and every log line are
// searched for the numbers: none is found. Each request that carries one is refused, and the admin is
// told why, on the field that held it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { RedisRateLimiter } from '../lib/rate-limiter';
import { luhnValid } from '../lib/card-numbers';
import { createAdvertiser, createSession, seedGeo } from './factories';
import { createTestApp } from './helpers';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logged: string[] = [];
const t = await createTestApp({ LOG_LEVEL: 'trace' }, { logStream: { write: (line: string) => logged.push(line) } });
const redisPrefix = `rl-sweep-${crypto.randomBytes(6).toString('hex')}:`;
await t.ctx.limiter.close();
t.ctx.limiter = new RedisRateLimiter(REDIS_URL, redisPrefix);
afterAll(() => t.close());
await seedGeo(t.ctx);
const owner = (await createAdvertiser(t.ctx)).account;
const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account;

// ---------------------------------------------------------------- the numbers

/** A random card number of a brand: its prefix, random digits, the Luhn check digit. */
function card(prefix: string, length: number): string {
  let body = prefix;
  while (body.length < length - 1) body += String(crypto.randomInt(10));
  for (let d = 0; d < 10; d++) if (luhnValid(body + d)) return body + d;
  throw new Error('unreachable');
}
const CARDS = [card('4', 16), card('53', 16), card('37', 15), card('6011', 16)];
const group = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');
/** The ways a card number arrives in a text field, most revealing first. */
const writings = (digits: string) => [
  `my card ${group(digits)} exp 12/30 cvc 123`,
  `k_${digits}`,
  `${digits}@example.test`,
  digits,
  group(digits).replace(/ /g, '-'),
];
const pattern = (digits: string) => digits.split('').join('[ -]?');

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

/** Where a card number fits in this string schema, if anywhere (an enum or a date cannot hold one). */
function cardText(s: Schema, digits: string): string | undefined {
  if (s.enum || s.const !== undefined || typeOf(s) !== 'string') return undefined;
  return writings(digits).find((w) => fits(s, w));
}

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
}

function calls(): Call[] {
  const out: Call[] = [];
  let next = 0;
  const digits = () => CARDS[next++ % CARDS.length];
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
      const add = (field: string, url: string, payload: unknown) =>
        out.push({ label: `${method.toUpperCase()} ${route} [${field}]`, method, url, payload, field, exempt });
      // Any operation: a query parameter it does not know, which a log line or a cache key could still show.
      add('note', build(pathValues, { ...queryValues, note: writings(digits())[0] }), bodies[0] && sample(bodies[0]));
      for (const p of params) {
        const text = cardText(resolve(p.schema), digits());
        if (text) add(p.name, build({ ...pathValues, [p.name]: text }, queryValues), bodies[0] && sample(bodies[0]));
      }
      for (const p of query) {
        const text = cardText(resolve(p.schema), digits());
        if (text) add(p.name, build(pathValues, { ...queryValues, [p.name]: text }), bodies[0] && sample(bodies[0]));
      }
      for (const body of bodies) {
        if (!body) continue;
        const base = sample(body);
        for (const [at, s] of stringFields(body)) {
          const text = cardText(s, digits());
          if (text) add(at.join('.'), build(pathValues, queryValues), setAt(base, at, text));
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- where a number could have gone

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
      sql`select count(*) as n from ${sql.identifier(name)} r where r::text ~ ${pattern(digits)}`,
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

async function redisText(): Promise<string> {
  const redis = (t.ctx.limiter as RedisRateLimiter).redis;
  const parts: string[] = [];
  for (const match of [`${redisPrefix}*`, `answer:${t.ctx.buildId}:*`]) {
    for await (const keys of redis.scanStream({ match, count: 500 }) as AsyncIterable<string[]>) {
      for (const key of keys) {
        parts.push(key);
        if ((await redis.type(key)) === 'string')
          parts.push(((await redis.getBuffer(key)) ?? Buffer.alloc(0)).toString('latin1'));
      }
    }
  }
  return parts.join('\n');
}

// ---------------------------------------------------------------- the sweep

describe('card numbers sent to every operation of the API', () => {
  it('are refused, and afterwards are in no table, outbox file, Redis key or value, or log line', async () => {
    const all = calls();
    const operations = Object.values(docs.paths).flatMap((ops) => Object.keys(ops)).length;
    expect(operations).toBeGreaterThan(80);
    expect(new Set(all.map((c) => c.label.split(' [')[0])).size).toBe(operations);
    expect(all.length).toBeGreaterThan(150);
    const sessions = { visitor: null, admin: await createSession(t.ctx, admin.id) };
    const accepted: string[] = [];
    const unexplained: string[] = [];
    let told = 0;
    for (const call of all) {
      for (const [who, session] of Object.entries(sessions)) {
        const res = await t.app.inject({
          method: call.method.toUpperCase() as 'GET',
          url: call.url,
          ...(call.payload !== undefined && call.method !== 'get' ? { payload: call.payload as object } : {}),
          ...(session ?? {}),
        });
        if (res.statusCode < 400) accepted.push(`${who} ${call.label} -> ${res.statusCode}`);
        // A phone field is no card field (its own rule refuses what is not a phone number).
        if (who !== 'admin' || call.exempt || res.statusCode === 429 || /phone|mobile/.test(call.field)) continue;
        const errors = res.statusCode === 422 ? (res.json().errors as Record<string, string[]>) : {};
        if (errors[call.field]?.includes("Card numbers can't be posted here.")) told += 1;
        else unexplained.push(`${call.label} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect.soft(accepted, 'requests that carried a card number and were not refused').toEqual([]);
    // The admin passes every guard: each refusal says why, on the field.
    expect.soft(unexplained).toEqual([]);
    expect.soft(told).toBeGreaterThan(150);

    for (const digits of CARDS) expect.soft(await tablesHolding(digits), `tables holding ${digits}`).toEqual([]);
    const outbox = filesUnder(path.join(t.ctx.env.dataDir, 'outbox'))
      .map((f) => fs.readFileSync(f, 'latin1'))
      .join('\n');
    const redis = await redisText();
    const log = logged.join('\n');
    expect(log).toContain('/api/directory/search');
    for (const digits of CARDS) {
      const re = new RegExp(pattern(digits));
      expect.soft(re.test(outbox), `outbox holding ${digits}`).toBe(false);
      expect.soft(re.test(redis), `Redis holding ${digits}`).toBe(false);
      expect
        .soft(
          log.split('\n').filter((line) => re.test(line)),
          `log lines showing ${digits}`,
        )
        .toEqual([]);
    }
  }, 300_000);
});
