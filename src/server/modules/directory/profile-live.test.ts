// A visitor's cached profile answer with its live figures (views, last seen) filled in on every read
// (docs/decisions/0700, 0722): on PostgreSQL they come with the directory version in one query per batch
// of requests, and the spliced answer is kept per cached answer while its figures stay the same. Never
// older than the request, never another profile's. Runs on PGlite and PostgreSQL.
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Requester } from '../../test/as';
import { createAdvertiser, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
/** A browser from one address; a request's own headers or address add to these. */
let visitor: Requester;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  visitor = as(t, null, { headers: { 'user-agent': 'Mozilla/5.0 live' }, remoteAddress: '203.0.113.9' });
  for (const name of ['Dora Live', 'Eva Live', 'Fay Live'])
    ids[name.split(' ')[0].toLowerCase()] = (await createAdvertiser(t.ctx, { screenName: name })).account.id;
});
afterAll(() => t.close());

const profile = async (id: number, query = '?track=0') => {
  const res = await visitor.get(`/api/getProfile/${id}${query}`);
  expect(res.statusCode).toBe(200);
  return res.json().profile as { user_id: number; views: number; last_seen: number | null };
};
const setViews = (id: number, views: number) =>
  t.ctx.db.execute(sql`update profiles set views = ${views} where user_id = ${id}`);

describe("a profile's live figures", () => {
  it("shows a view counted by one request in the next request's figures", async () => {
    const before = (await profile(ids.dora)).views;
    await profile(ids.dora, '');
    expect((await profile(ids.dora)).views).toBe(before + 1);
    // Another visitor, by name.
    await visitor.get(`/api/getProfileByName/Dora%20Live`, { remoteAddress: '203.0.113.10' });
    expect((await profile(ids.dora)).views).toBe(before + 2);
  });

  it("gives each of many requests at once its own profile's figures, and a write committed before them", async () => {
    for (let round = 0; round < 3; round++) {
      await setViews(ids.dora, 100 + round);
      await setViews(ids.eva, 200 + round);
      await setViews(ids.fay, 300 + round);
      const order = Array.from({ length: 30 }, (_, i) => [ids.dora, ids.eva, ids.fay][i % 3]);
      const answers = await Promise.all(order.map((id) => profile(id)));
      expect(answers.map((a) => [a.user_id, a.views])).toEqual(
        order.map((id) => [id, { [ids.dora]: 100, [ids.eva]: 200, [ids.fay]: 300 }[id]! + round]),
      );
    }
  });

  it('sees a write that commits while a read of the figures is under way', async () => {
    await setViews(ids.eva, 500);
    const reading = profile(ids.eva);
    const writing = setViews(ids.eva, 501);
    await Promise.all([reading, writing]);
    expect((await profile(ids.eva)).views).toBe(501);
  });

  it('by name, shows the figures of the profile that has the name now, not of the one that had it', async () => {
    await setViews(ids.dora, 1000);
    await setViews(ids.eva, 2000);
    const byName = async () => {
      const res = await visitor.get('/api/getProfileByName/Dora%20Live?track=0');
      expect(res.statusCode).toBe(200);
      return res.json().profile as { user_id: number; views: number };
    };
    expect(await byName()).toMatchObject({ user_id: ids.dora, views: 1000 });
    expect(await byName()).toMatchObject({ user_id: ids.dora, views: 1000 });
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`update profiles set screen_name = 'Dora Before' where user_id = ${ids.dora}`);
      await tx.execute(sql`update profiles set screen_name = 'Dora Live' where user_id = ${ids.eva}`);
    });
    expect(await byName()).toMatchObject({ user_id: ids.eva, views: 2000 });
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`update profiles set screen_name = 'Eva Live' where user_id = ${ids.eva}`);
      await tx.execute(sql`update profiles set screen_name = 'Dora Live' where user_id = ${ids.dora}`);
    });
    expect(await byName()).toMatchObject({ user_id: ids.dora, views: 1000 });
  });

  it('keeps the ETag while the figures stay, and compresses the answer with the figures it has', async () => {
    await setViews(ids.fay, 40);
    const br = async () => {
      const res = await visitor.get(`/api/getProfile/${ids.fay}?track=0`, { headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      const text =
        res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(res.rawPayload) : res.rawPayload;
      return { etag: res.headers.etag as string, views: JSON.parse(text.toString()).profile.views as number };
    };
    const a = await br();
    const b = await br();
    expect(a.views).toBe(40);
    expect(b).toEqual(a);
    expect(
      (await visitor.get(`/api/getProfile/${ids.fay}?track=0`, { headers: { 'if-none-match': a.etag } })).statusCode,
    ).toBe(304);
    await setViews(ids.fay, 41);
    const c = await br();
    expect(c.views).toBe(41);
    expect(c.etag).not.toBe(a.etag);
    expect(
      (await visitor.get(`/api/getProfile/${ids.fay}?track=0`, { headers: { 'if-none-match': a.etag } })).statusCode,
    ).toBe(200);
  });
});
