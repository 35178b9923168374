// The cache of visitors' answers (docs/decisions/0700) never answers stale: every write that changes an
// answer, whoever makes it (here plain SQL that knows nothing of any cache, and the admin's flag), is
// seen by the very next read, through the database's own version counter. Runs on PGlite and PostgreSQL.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { refreshCountryPrimary } from '../listings/listings.service';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { backend, createTestApp, type TestApp, buildPagesApp } from '../../test/helpers';

let t: TestApp;
const ids: Record<string, number> = {};
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  ids.anna = (await createAdvertiser(t.ctx, { bumpedAt: minutesAgo(30), screenName: 'Anna Cache' })).account.id;
  ids.bea = (await createAdvertiser(t.ctx, { bumpedAt: minutesAgo(20), screenName: 'Bea Cache' })).account.id;
  ids.cleo = (await createAdvertiser(t.ctx, { bumpedAt: minutesAgo(10), screenName: 'Cleo Cache' })).account.id;
  ids.admin = (await createAdvertiser(t.ctx, { role: 'admin', screenName: 'Admin Cache' })).account.id;
  await t.ctx.db.execute(sql`update profiles set listed = false where user_id = ${ids.admin}`);
  await refreshCountryPrimary(t.ctx.db, t.ctx.now());
});
afterAll(() => t.close());

const list = async (path = '/api/directory/getDirectory?page=1', payload: object = { country: 'united-kingdom' }) => {
  const res = await t.app.inject({ method: 'POST', url: path, payload });
  expect(res.statusCode).toBe(200);
  return res;
};
const listedIds = async () => (await list()).json().data.map((i: { id: number }) => i.id) as number[];
const searchIds = async () =>
  (await list('/api/directory/search?page=1', { q: 'cache' })).json().data.map((i: { id: number }) => i.id);
const nearbyIds = async () =>
  (await list('/api/directory/nearby?page=1', { lat: 51.5, lng: -0.12 })).json().data.map((i: { id: number }) => i.id);
const profileStatus = async (id: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/getProfile/${id}?track=0` })).statusCode;
const version = async () =>
  (await queryRows<{ v: string }>(t.ctx.db, sql`select v::text as v from directory_version`))[0].v;
/** The texts of the statements sent to the database while `run` runs (either backend). */
const sentStatements = async (run: () => Promise<unknown>) => {
  const texts: string[] = [];
  const client = (t.ctx.db as unknown as { $client: Record<string, unknown> }).$client;
  const method = t.ctx.dbKind === 'pglite' ? 'execProtocolRawSync' : 'query';
  const own = Object.getOwnPropertyDescriptor(client, method);
  const send = client[method] as (...a: unknown[]) => unknown;
  client[method] = (...a: unknown[]) => {
    const m = a[0];
    texts.push(
      m instanceof Uint8Array
        ? Buffer.from(m).toString('latin1')
        : typeof m === 'string'
          ? m
          : String((m as { text?: string }).text ?? ''),
    );
    return send.apply(client, a);
  };
  try {
    await run();
  } finally {
    if (own) Object.defineProperty(client, method, own);
    else delete client[method];
  }
  return texts;
};
/** Reads everything twice, so that the second answers come from the cache. */
const warm = async () => {
  for (let i = 0; i < 2; i++) {
    await listedIds();
    await searchIds();
    await nearbyIds();
    await list('/api/directory/getNavigation', { country: 'united-kingdom' });
    for (const id of [ids.anna, ids.bea, ids.cleo]) await profileStatus(id);
  }
};

describe('the answer cache', () => {
  it('answers repeated reads with the same bytes and ETag, public but to be revalidated', async () => {
    expect(await listedIds()).toEqual([ids.cleo, ids.bea, ids.anna]);
    const first = await list();
    const second = await list();
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['cache-control']).toBe('public, no-cache');
    expect(second.body).toBe(first.body);
  });

  it('shows a profile hidden by plain SQL on the very next read of every answer', async () => {
    await warm();
    expect(await searchIds()).toContain(ids.bea);
    expect(await nearbyIds()).toContain(ids.bea);
    // No service, no cache call: only the database knows.
    await t.ctx.db.execute(sql`update profiles set ad_status = 'hidden', listed = false where user_id = ${ids.bea}`);
    expect(await listedIds()).toEqual([ids.cleo, ids.anna]);
    expect(await searchIds()).not.toContain(ids.bea);
    expect(await nearbyIds()).not.toContain(ids.bea);
    expect(await profileStatus(ids.bea)).toBe(404);
    const nav = (await list('/api/directory/getNavigation', { country: 'united-kingdom' })).json();
    expect(nav.counts.escorts).toBe(2);
    await t.ctx.db.execute(sql`update profiles set ad_status = 'visible', listed = true where user_id = ${ids.bea}`);
    expect(await listedIds()).toEqual([ids.cleo, ids.bea, ids.anna]);
    expect(await profileStatus(ids.bea)).toBe(200);
  });

  it('shows a profile flagged by an admin on the very next read', async () => {
    await warm();
    const admin = await createSession(t.ctx, ids.admin);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/flag',
      cookies: admin.cookies,
      headers: admin.headers,
      payload: { user_id: ids.cleo, flagged: true },
    });
    expect(res.statusCode).toBe(200);
    expect(await listedIds()).toEqual([ids.bea, ids.anna]);
    expect(await searchIds()).not.toContain(ids.cleo);
    expect(await profileStatus(ids.cleo)).toBe(404);
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/flag',
      cookies: admin.cookies,
      headers: admin.headers,
      payload: { user_id: ids.cleo, flagged: false },
    });
    expect(await listedIds()).toEqual([ids.cleo, ids.bea, ids.anna]);
  });

  it('moves a bumped (topped-up) profile to the top on the very next read', async () => {
    await warm();
    await t.ctx.db.execute(sql`update listings set bumped_at = now() where profile_id = ${ids.anna}`);
    expect(await listedIds()).toEqual([ids.anna, ids.cleo, ids.bea]);
    expect((await searchIds())[0]).toBe(ids.anna);
  });

  it('shows an edited profile at once, with a new ETag, and answers 304 to a browser that has it', async () => {
    const url = `/api/getProfile/${ids.anna}?track=0`;
    const first = await t.app.inject({ method: 'GET', url });
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await t.ctx.db.execute(sql`update profiles set heading = 'Freshly edited' where user_id = ${ids.anna}`);
    const changed = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().profile.heading).toBe('Freshly edited');
    expect(changed.headers.etag).not.toBe(etag);
    // The list answer changed with it.
    expect((await list()).json().data.find((i: { id: number }) => i.id === ids.anna).heading).toBe('Freshly edited');
  });

  it('answers 304 for the countries list too', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/directory/countries' });
    const etag = String(first.headers.etag);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/directory/countries',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/directory/countries',
      headers: { 'if-none-match': '"x"' },
    });
    expect(other.statusCode).toBe(200);
  });

  it('counts views and shows the fresh count and last-seen from a cached profile answer', async () => {
    const url = `/api/getProfile/${ids.cleo}`;
    const before = (await t.app.inject({ method: 'GET', url })).json().profile.views as number;
    const v = await version();
    const after = (await t.app.inject({ method: 'GET', url })).json().profile;
    expect(after.views).toBe(before + 1);
    // Counting a view is not a change of the directory: the cached answers stay.
    expect(await version()).toBe(v);
    await t.ctx.db.execute(sql`update accounts set last_seen_at = now() where id = ${ids.cleo}`);
    expect(await version()).toBe(v);
    expect((await t.app.inject({ method: 'GET', url })).json().profile.last_seen).toBeLessThan(60);
  });

  it('shows a view count or last-seen moment written by plain SQL on the very next read', async () => {
    const url = `/api/getProfile/${ids.bea}?track=0`;
    const read = async () => (await t.app.inject({ method: 'GET', url })).json().profile;
    const before = await read();
    expect((await read()).views).toBe(before.views);
    await t.ctx.db.execute(sql`update profiles set views = views + 5 where user_id = ${ids.bea}`);
    expect((await read()).views).toBe(before.views + 5);
    await t.ctx.db.execute(sql`update accounts set last_seen_at = now() - interval '3 hours' where id = ${ids.bea}`);
    const seen = (await read()).last_seen;
    expect(seen).toBeGreaterThanOrEqual(3 * 3600);
    expect(seen).toBeLessThan(3 * 3600 + 60);
    await t.ctx.db.execute(sql`update accounts set last_seen_at = now() where id = ${ids.bea}`);
    expect((await read()).last_seen).toBeLessThan(60);
  });

  it('drops a listing at the moment it expires by the app clock, without any write', async () => {
    // The app's clock is the one clock, in SQL too: the listing expires a minute from it, the answer is
    // cached, then the clock moves past the expiry (the database's own clock has not got there).
    const realNow = t.ctx.now;
    const at = realNow();
    t.ctx.now = () => at;
    try {
      await t.ctx.db.execute(
        sql`update listings set expires_at = ${new Date(at.getTime() + 60_000).toISOString()}::timestamptz
            where profile_id = ${ids.bea}`,
      );
      for (const read of [listedIds, searchIds, nearbyIds]) {
        expect(await read()).toContain(ids.bea);
        expect(await read()).toContain(ids.bea);
      }
      const v = await version();
      t.ctx.now = () => new Date(at.getTime() + 61_000);
      expect(await version()).toBe(v);
      expect(await listedIds()).not.toContain(ids.bea);
      expect(await nearbyIds()).not.toContain(ids.bea);
      const nav = (await list('/api/directory/getNavigation', { country: 'united-kingdom' })).json();
      expect(nav.counts.escorts).toBe(2);
      // Back before the expiry (a clock moved back): the listing shows again.
      t.ctx.now = () => at;
      expect(await listedIds()).toContain(ids.bea);
    } finally {
      t.ctx.now = realNow;
    }
    await t.ctx.db.execute(sql`update listings set expires_at = null where profile_id = ${ids.bea}`);
    await refreshCountryPrimary(t.ctx.db, t.ctx.now());
    expect(await listedIds()).toContain(ids.bea);
  });

  it('shows a write made in a transaction once it commits, and nothing of a rolled-back one', async () => {
    await warm();
    const v = await version();
    const before = await list();
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`update profiles set listed = false where user_id = ${ids.cleo}`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await version()).toBe(v);
    const after = await list();
    expect(after.headers.etag).toBe(before.headers.etag);
    expect(after.json().data.map((i: { id: number }) => i.id)).toContain(ids.cleo);
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`update profiles set listed = false where user_id = ${ids.cleo}`);
      await tx.execute(sql`update listings set bumped_at = now() where profile_id = ${ids.bea}`);
    });
    // One transaction, one new version.
    expect(Number(await version())).toBe(Number(v) + 1);
    expect(await listedIds()).toEqual([ids.bea, ids.anna]);
    expect(await profileStatus(ids.cleo)).toBe(404);
    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${ids.cleo}`);
    expect(await listedIds()).toContain(ids.cleo);
  });

  it("shows a write made past the app's query builder, on the driver itself, on the very next read", async () => {
    await warm();
    const write = async (text: string) => {
      if (t.ctx.dbKind === 'pglite') {
        // The embedded instance's own API, as a job or a console holding the instance would.
        await (t.ctx.db as unknown as { $client: { exec(q: string): Promise<unknown> } }).$client.exec(text);
        return;
      }
      // Another connection, as another instance of the app or psql would.
      const client = new pg.Client({ connectionString: t.ctx.env.DATABASE_URL });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };
    await write(`update profiles set listed = false where user_id = ${ids.anna}`);
    expect(await listedIds()).not.toContain(ids.anna);
    expect(await profileStatus(ids.anna)).toBe(404);
    await write(`begin; update profiles set listed = true where user_id = ${ids.anna}; commit`);
    expect(await listedIds()).toContain(ids.anna);
    expect(await profileStatus(ids.anna)).toBe(200);
  });

  it('sees a write that commits while a read of the version is under way', async () => {
    await warm();
    // The read and the write are sent together: the read's answer may predate the write, and must not
    // be taken for the directory's state afterwards.
    const reading = listedIds();
    const writing = t.ctx.db.execute(sql`update profiles set listed = false where user_id = ${ids.bea}`);
    await Promise.all([reading, writing]);
    expect(await listedIds()).not.toContain(ids.bea);
    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${ids.bea}`);
    expect(await listedIds()).toContain(ids.bea);
  });

  it('caches the feed like the lists, and shows a newly verified profile on the very next read', async () => {
    const url = '/api/directory/feed/profiles?page=1';
    const feedIds = async () => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      return res;
    };
    const first = await feedIds();
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const etag = String(first.headers.etag);
    expect((await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    await t.ctx.db.execute(
      sql`update profiles set verification_status = 'verified', verified_at = now() where user_id = ${ids.cleo}`,
    );
    const changed = await feedIds();
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().data[0].profile.id).toBe(ids.cleo);
  });

  it('resolves a place once until the places change (decision 0742), and sees a city renamed by plain SQL at once', async () => {
    const london = { country: 'united-kingdom', place: 'london' };
    await list('/api/directory/getDirectory?page=1', london);
    // Another category's first page, never asked: its rows are read, the country and city are known.
    const texts = await sentStatements(() =>
      list('/api/directory/getDirectory?page=1', { ...london, category: 'male' }),
    );
    expect(texts.some((q) => q.includes('directory_entries'))).toBe(true);
    expect(texts.filter((q) => /from "?(countries|cities)"? /i.test(q))).toEqual([]);
    const status = async (place: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/directory/getDirectory?page=1', payload: { ...london, place } }))
        .statusCode;
    expect(await status('londinium')).toBe(404);
    await t.ctx.db.execute(sql`update cities set slug = 'londinium' where slug = 'london' and country_code = 'GB'`);
    try {
      expect(await status('londinium')).toBe(200);
      expect(await status('london')).toBe(404);
    } finally {
      await t.ctx.db.execute(sql`update cities set slug = 'london' where slug = 'londinium' and country_code = 'GB'`);
    }
    expect(await status('london')).toBe(200);
  });

  it('gives a signed-in user an answer made for her, never the shared one', async () => {
    const owner = await createSession(t.ctx, ids.anna);
    const res = await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids.anna}`, cookies: owner.cookies });
    expect(res.json().profile.can_edit).toBe(true);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    const visitor = await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids.anna}?track=0` });
    expect(visitor.json().profile.can_edit).toBe(false);
  });
});

// PGlite (docs/decisions/0720): the version is known in process, told of every commit by the instance.
describe.runIf(backend === 'pglite')('the version on the embedded database', () => {
  interface Instance {
    exec(q: string): Promise<unknown>;
    execProtocolRawSync(m: Uint8Array): Uint8Array;
    execProtocolRawStream(m: Uint8Array, o: { onRawData: (b: Uint8Array) => void }): Promise<void>;
  }
  const instance = () => (t.ctx.db as unknown as { $client: Instance }).$client;
  /** Statements sent to the instance while `run` runs. */
  const statements = async (run: () => Promise<unknown>) => {
    const c = instance();
    const own = Object.getOwnPropertyDescriptor(c, 'execProtocolRawSync');
    const send = c.execProtocolRawSync;
    let n = 0;
    c.execProtocolRawSync = (m) => {
      n++;
      return send(m);
    };
    try {
      await run();
    } finally {
      if (own) Object.defineProperty(c, 'execProtocolRawSync', own);
    }
    return n;
  };

  it('answers a cached list without any statement to the database', async () => {
    await warm();
    expect(await statements(() => listedIds())).toBe(0);
    expect(await statements(() => searchIds())).toBe(0);
    await t.ctx.db.execute(sql`update listings set bumped_at = now() where profile_id = ${ids.cleo}`);
    // After a commit, one read of the version (and the answer, made again).
    expect(await statements(() => listedIds())).toBeGreaterThan(0);
    expect(await statements(() => listedIds())).toBe(0);
  });

  it('answers a cached profile, its live figures included, without any statement until they change', async () => {
    const url = `/api/getProfile/${ids.anna}?track=0`;
    const read = async () => (await t.app.inject({ method: 'GET', url })).json().profile;
    const first = await read();
    expect(await statements(() => read())).toBe(0);
    await t.ctx.db.execute(sql`update profiles set views = views + 1 where user_id = ${ids.anna}`);
    expect((await read()).views).toBe(first.views + 1);
    expect(await statements(() => read())).toBe(0);
    // Another profile's change leaves this one's figures known.
    await t.ctx.db.execute(sql`update profiles set views = views + 1 where user_id = ${ids.bea}`);
    expect(await statements(() => read())).toBe(0);
  });

  it('still sees every commit after an UNLISTEN, DISCARD or RESET went through the instance', async () => {
    await warm();
    await t.ctx.db.execute(sql`unlisten *`);
    await warm();
    await t.ctx.db.execute(sql`update profiles set listed = false where user_id = ${ids.bea}`);
    expect(await listedIds()).not.toContain(ids.bea);
    await t.ctx.db.execute(sql`discard all`);
    await warm();
    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${ids.bea}`);
    expect(await listedIds()).toContain(ids.bea);
    await t.ctx.db.execute(sql`reset all`);
    await warm();
    await t.ctx.db.execute(sql`update profiles set listed = false where user_id = ${ids.bea}`);
    expect(await listedIds()).not.toContain(ids.bea);
    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${ids.bea}`);
    expect(await listedIds()).toContain(ids.bea);
  });

  it('sees a commit followed by a failing statement in the same simple query', async () => {
    await warm();
    // PGlite stops reading the answer at the error, and the commit's notification comes after it.
    await expect(
      instance().exec(`begin; update profiles set listed = false where user_id = ${ids.bea}; commit; select 1/0`),
    ).rejects.toThrow(/division by zero/);
    expect(await listedIds()).not.toContain(ids.bea);
    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${ids.bea}`);
    expect(await listedIds()).toContain(ids.bea);
  });

  it('sees a write sent through the raw protocol stream, whose notifications PGlite does not read', async () => {
    await warm();
    const text = Buffer.from(`update profiles set listed = false where user_id = ${ids.cleo}\0`);
    const message = Buffer.alloc(5 + text.length);
    message.write('Q', 0);
    message.writeInt32BE(4 + text.length, 1);
    text.copy(message, 5);
    await instance().execProtocolRawStream(message, { onRawData: () => undefined });
    expect(await listedIds()).not.toContain(ids.cleo);
    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${ids.cleo}`);
    expect(await listedIds()).toContain(ids.cleo);
  });
});

describe('server-rendered pages', () => {
  let pages: FastifyInstance;
  beforeAll(async () => {
    pages = await buildPagesApp(t);
  });
  afterAll(() => pages.close());

  it('carry an ETag, answer 304 to a browser that has the page, and change with the directory', async () => {
    const first = await pages.inject({ method: 'GET', url: '/escorts/united-kingdom' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const etag = String(first.headers.etag);
    const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(first.body)?.[1];
    expect(String(first.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);
    const again = await pages.inject({
      method: 'GET',
      url: '/escorts/united-kingdom',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    // The copy the browser keeps names the same nonce as the header of the 304.
    expect(String(again.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);
    await t.ctx.db.execute(sql`update profiles set screen_name = 'Anna Renamed' where user_id = ${ids.anna}`);
    const changed = await pages.inject({
      method: 'GET',
      url: '/escorts/united-kingdom',
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('Anna Renamed');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('a hidden profile page is a 404 on the very next read', async () => {
    expect((await pages.inject({ method: 'GET', url: `/profile/${ids.anna}` })).statusCode).toBe(200);
    await t.ctx.db.execute(sql`update profiles set listed = false where user_id = ${ids.anna}`);
    expect((await pages.inject({ method: 'GET', url: `/profile/${ids.anna}` })).statusCode).toBe(404);
    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${ids.anna}`);
  });
});

describe('the answer cache on Redis (REDIS_URL)', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({ REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' });
    await seedGeo(r.ctx);
    ids.redisOne = (
      await createAdvertiser(r.ctx, { bumpedAt: minutesAgo(5), screenName: `Redis ${crypto.randomUUID()}` })
    ).account.id;
  });
  afterAll(() => r?.close());

  it('keeps the answers there and still shows a hidden profile at once', async () => {
    const read = () =>
      r.app.inject({
        method: 'POST',
        url: '/api/directory/getDirectory?page=1',
        payload: { country: 'united-kingdom' },
      });
    expect((await read()).json().data.map((i: { id: number }) => i.id)).toEqual([ids.redisOne]);
    await r.ctx.db.execute(sql`update profiles set listed = false where user_id = ${ids.redisOne}`);
    expect((await read()).json().data).toEqual([]);
  });
});
