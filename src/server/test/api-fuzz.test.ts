// The fuzz suite (issue 8): every /api route the app registered (its route table, so a new route joins
// without anyone listing it) gets FUZZ_RUNS generated requests: bodies, query strings and path values
// with NUL bytes, huge and fractional numbers, deep nesting, wrong types, bad encodings and hostile
// text, shaped by the route's own schema so that some reach the service; sent as a visitor, the owner,
// another advertiser or an admin. Each answer must be below 500, every refusal the spec's envelope
// ({message} or, for 422, {message, errors}), every answer one that /api/docs.json declares for the
// operation (its status, its media type, its JSON body by the declared schema), and a refused call must
// change no row.
//
// Reproduce a failure with the seed fast-check prints: FUZZ_SEED=<seed> npx vitest run <this file>.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../db/client';
import { routeTable } from '../plugins/route-table';
import { createAdvertiser, createSession, seedGeo } from './factories';
import { backend, createTestApp } from './helpers';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
// One database is enough for what the suite checks (the envelope, no 5xx, no row changed): PostgreSQL when
// the run has it (CI), else PGlite. The two run the same SQL; the suite takes ~2 minutes a database.
const HERE = !(process.env.TEST_DATABASE_URL && backend === 'pglite');
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261123;

const t = await createTestApp();
afterAll(() => t.close());
await seedGeo(t.ctx);
const owner = (await createAdvertiser(t.ctx)).account;
const other = (await createAdvertiser(t.ctx)).account;
const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account;
const routes = routeTable(t.app).filter((r) => r.url.startsWith('/api/'));

// ---------------------------------------------------------------- the document

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
const doc = (await t.app.inject({ method: 'GET', url: '/api/docs.json' })).json<{
  paths: Record<string, Record<string, Operation>>;
}>();
// OpenAPI 3.1's schemas are JSON Schema 2020-12. Formats (date, binary) are the document's notes to
// readers, not checked here; the shapes are.
const ajv = new Ajv2020({ strict: false, validateFormats: false, logger: false });
const validators = new WeakMap<object, ValidateFunction>();
const validatorOf = (schema: object) =>
  validators.get(schema) ?? validators.set(schema, ajv.compile(schema)).get(schema)!;

/**
 * Why this answer is not one /api/docs.json declares for the route's operation (issue 21 item 5), or
 * null: its status must be among the operation's responses, its type among that response's media types
 * (no body where none is declared), and a JSON body must match the declared schema.
 */
function undeclared(
  route: { method: string; url: string },
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
): string | null {
  if (route.url === '/api/docs.json') return null; // the document does not list itself
  const op = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
  if (!op) return 'the operation is not in /api/docs.json';
  const declared = op.responses ?? {};
  const answer = declared[String(res.statusCode)];
  if (!answer)
    return `${res.statusCode} is not declared (${Object.keys(declared).join(', ')}): ${res.body.slice(0, 200)}`;
  if (!answer.content) return res.body === '' ? null : `${res.statusCode} is declared without a body, and one came`;
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  const media = answer.content[type];
  if (!media) return `${res.statusCode} came as "${type}", declared: ${Object.keys(answer.content).join(', ')}`;
  if (type !== 'application/json' || !media.schema) return null;
  const validate = validatorOf(media.schema);
  if (validate(JSON.parse(res.body))) return null;
  return `${res.statusCode} does not match its schema (${ajv.errorsText(validate.errors)}): ${res.body.slice(0, 200)}`;
}

// ---------------------------------------------------------------- what is generated

const ID_POOL = [owner.id, other.id, admin.id, 1, 0, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 53, 1e308];

/** Text an attacker tries: control characters, encodings, injections, lone surrogates, length. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u0007\u001b[2J',
    '%00',
    '%',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '\uD800',
    '\u202Egnp.exe',
    'x'.repeat(5000),
    '𝕏'.repeat(300),
    '__proto__',
    'constructor',
    'de',
    'escorts',
    'germany',
    'london',
    'spam',
    '1990-01-01',
    '2026-13-45',
    // Days PostgreSQL cannot store, or whose next day it cannot (issue 42 item 7).
    '0000-01-01',
    '0001-01-01',
    '9999-12-31',
    '294277-01-01',
    'someone@example.test',
    owner.username,
    owner.email,
    '+491701234567',
  ),
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(...ID_POOL, 0.5, -0.0, Number.MAX_SAFE_INTEGER + 2, -(2 ** 63), 1e-300),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const atom = fc.oneof(hostileText, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value, a little nested. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileText, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** The fields of a Zod object, each left out or given a hostile value (nested objects alike). */
function shaped(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const inner = unwrap(schema);
  if (!(inner instanceof z.ZodObject) || depth > 3) return anyValue;
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, field] of Object.entries(inner.shape as Record<string, unknown>))
    fields[key] = fc.oneof(shaped(field, depth + 1), atom, anyValue);
  const record = fc.record(fields, { requiredKeys: [] });
  // Sometimes one key the schema does not know.
  return fc.oneof(
    record,
    fc.tuple(record, hostileText, atom).map(([r, k, v]) => ({ ...(r as object), [k]: v })),
  );
}

function unwrap(schema: unknown): unknown {
  let s = schema;
  for (let i = 0; i < 5 && s && typeof s === 'object'; i++) {
    const def = (s as { def?: { innerType?: unknown; in?: unknown; schema?: unknown } }).def;
    const next = def?.innerType ?? def?.in ?? def?.schema;
    if (!next) break;
    s = next;
  }
  return s;
}

/** A raw body: JSON of a shaped or arbitrary value, deep nesting, broken JSON, or another type. */
interface Body {
  payload?: string;
  type?: string;
}

function bodyArb(schema: unknown): fc.Arbitrary<Body> {
  const json = (v: unknown) => ({ payload: JSON.stringify(v) ?? 'null', type: 'application/json' });
  return fc.oneof(
    { arbitrary: shaped(schema).map(json), weight: 6 },
    { arbitrary: anyValue.map(json), weight: 2 },
    {
      arbitrary: fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean()).map(([n, arr]) => ({
        payload: arr ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n),
        type: 'application/json',
      })),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom(
        { payload: '{"a":', type: 'application/json' },
        { payload: '\u0000', type: 'application/json' },
        { payload: '{"__proto__":{"admin":true}}', type: 'application/json' },
        { payload: '{"constructor":{"prototype":{"x":1}}}', type: 'application/json' },
        { payload: 'login=a&password=b', type: 'application/x-www-form-urlencoded' },
        { payload: 'hello', type: 'text/plain' },
        {
          payload: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--x--',
          type: 'multipart/form-data; boundary=x',
        },
        { payload: '--x', type: 'multipart/form-data' },
        { payload: '{}', type: 'application/json; charset=utf-16' },
        { payload: undefined, type: undefined },
      ),
      weight: 1,
    },
  );
}

/** A query string: the schema's keys and others, hostile values, repeated keys, bad encodings. */
function queryArb(schema: unknown): fc.Arbitrary<string> {
  const inner = unwrap(schema);
  const keys = inner instanceof z.ZodObject ? Object.keys(inner.shape as object) : [];
  const key = keys.length ? fc.oneof(fc.constantFrom(...keys), hostileText) : hostileText;
  const value = fc.oneof(
    hostileText,
    hostileNumber.map(String),
    fc.constantFrom('99999999999999999999', '1e400', '-1', '0', 'NaN', 'Infinity', '0x10', '1.5'),
  );
  const pairs = fc.array(fc.tuple(key, value), { maxLength: 5 }).map((list) => {
    const q = new URLSearchParams();
    for (const [k, v] of list) q.append(k, v);
    return q.toString();
  });
  return fc.oneof(
    { arbitrary: pairs, weight: 8 },
    { arbitrary: fc.constantFrom('%', '%zz', 'a=%00', 'a[b][c]=1', 'page=1&page=2', '='.repeat(500)), weight: 1 },
  );
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser sends it). */
const encode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** A path segment: ids of the pool, hostile numbers and text, broken encodings. */
const segmentArb = fc.oneof(
  { arbitrary: fc.constantFrom(...ID_POOL).map(String), weight: 3 },
  { arbitrary: hostileNumber.map(String).map(encode), weight: 2 },
  { arbitrary: hostileText.map(encode), weight: 3 },
  { arbitrary: fc.constantFrom('%', '%zz', '%00', '%2F', '..', '.', 'a%00b', '%C0%AF', '%FF'), weight: 1 },
);

const who = fc.constantFrom('visitor', 'owner', 'other', 'admin') as fc.Arbitrary<
  'visitor' | 'owner' | 'other' | 'admin'
>;
const address = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map(([a, b]) => `10.${a}.${b}.7`);
const crossSite = fc.oneof(
  { arbitrary: fc.constant({}), weight: 8 },
  { arbitrary: fc.constantFrom({ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }), weight: 1 },
);

// ---------------------------------------------------------------- what is checked

/** Moves when any transaction wrote (or began to write): a cheap sign that rows may have changed. */
async function writeMark(): Promise<string> {
  const [row] = await queryRows<{ x: string }>(
    t.ctx.db,
    sql`select pg_snapshot_xmax(pg_current_snapshot())::text as x`,
  );
  return row.x;
}

const tables = (
  await queryRows<{ name: string }>(
    t.ctx.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )
).map((r) => r.name);

/** Every row of every table, as one hash per table. */
async function fingerprint(): Promise<Record<string, string>> {
  const parts = tables.map(
    (name) =>
      sql`select ${name} as name, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as hash from ${sql.identifier(name)} x`,
  );
  const rows = await queryRows<{ name: string; hash: string }>(t.ctx.db, sql.join(parts, sql` union all `));
  return Object.fromEntries(rows.map((r) => [r.name, r.hash]));
}

function changedTables(a: Record<string, string>, b: Record<string, string>) {
  return Object.keys(b).filter((k) => a[k] !== b[k]);
}

function checkEnvelope(res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
  if (res.statusCode < 400) return;
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(typeof body.message, res.body).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  if (res.statusCode === 422) {
    expect(Object.keys(body).sort()).toEqual(['errors', 'message']);
    const errors = body.errors as Record<string, unknown>;
    expect(Object.keys(errors).length, res.body).toBeGreaterThan(0);
    for (const list of Object.values(errors)) {
      expect(Array.isArray(list)).toBe(true);
      for (const m of list as unknown[]) expect(typeof m).toBe('string');
    }
  } else {
    expect(Object.keys(body), res.body).toEqual(['message']);
  }
}

// ---------------------------------------------------------------- the walk

describe.runIf(HERE)('fuzzing every /api route', () => {
  it('reads the routes from the app', () => {
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toContain('POST /api/auth/login');
  });

  it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', async (_name, route) => {
    // Fresh sessions per route: a fuzzed logout or switch may end the ones of the route before.
    const sessions = {
      visitor: null,
      owner: await createSession(t.ctx, owner.id),
      other: await createSession(t.ctx, other.id),
      admin: await createSession(t.ctx, admin.id),
    };
    const params = [...route.url.matchAll(/:(\w+)|\*/g)].length;
    const request = fc.record({
      who,
      segments: fc.array(segmentArb, { minLength: params, maxLength: params }),
      query: fc.option(queryArb(route.schema?.querystring), { nil: undefined }),
      body: route.method === 'GET' ? fc.constant<Body>({}) : bodyArb(route.schema?.body),
      remoteAddress: address,
      headers: crossSite,
    });
    let mark = await writeMark();
    let before = await fingerprint();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        let i = 0;
        const path = route.url.replace(/:(\w+)|\*/g, () => r.segments[i++]);
        const session = sessions[r.who];
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: r.query ? `${path}?${r.query}` : path,
          remoteAddress: r.remoteAddress,
          headers: {
            ...(r.body.type ? { 'content-type': r.body.type } : {}),
            ...(session ? session.headers : {}),
            ...r.headers,
          },
          cookies: session ? session.cookies : {},
          ...(r.body.payload !== undefined ? { payload: r.body.payload } : {}),
        });
        checkEnvelope(res);
        expect(undeclared(route, res)).toBeNull();
        await noRowChangedIfRefused(res);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );

    async function noRowChangedIfRefused(res: { statusCode: number; body: string }) {
      // Work a success leaves for after its answer (a reset link, a mail) lands before the next call.
      if (res.statusCode < 400)
        await new Promise((resolve) => (route.method === 'GET' ? setImmediate(resolve) : setTimeout(resolve, 3)));
      const now = await writeMark();
      if (now === mark) return;
      const after = await fingerprint();
      if (res.statusCode >= 400) expect(changedTables(before, after), `${res.statusCode} ${res.body}`).toEqual([]);
      mark = now;
      before = after;
    }
  });
});
