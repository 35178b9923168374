import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, comments, profiles } from '../../db/schema';
import { as } from '../../test/as';
import { createAdvertiser, createSession, seedGeo, type Session } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
const ids: Record<string, number> = {};
const who: Record<string, Session> = {};

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  for (const [key, o] of Object.entries({
    owner: { screenName: 'Olga Owner' },
    writer: { screenName: 'Walter <b>Writer</b>' },
    stranger: { screenName: 'Stella Stranger' },
    admin: { screenName: 'Ada Admin', role: 'admin' as const },
    closed: { screenName: 'Carla Closed' },
    hidden: { screenName: 'Hanna Hidden', adStatus: 'hidden' as const },
  })) {
    ids[key] = (await createAdvertiser(t.ctx, o)).account.id;
  }
  await t.ctx.db.update(profiles).set({ commentsEnabled: false }).where(eq(profiles.userId, ids.closed));
  for (const key of ['owner', 'writer', 'stranger', 'admin', 'closed', 'hidden'])
    who[key] = await createSession(t.ctx, ids[key]);
});
afterAll(() => t.close());

const list = (profileId: number, session?: Session, page = 1) =>
  as(t, session).get(`/api/comments/${profileId}?page=${page}`);
const comment = (profileId: number, body: unknown, session?: Session) =>
  as(t, session).post(`/api/comments/${profileId}`, body as object);
const remove = (commentId: number, session?: Session) => as(t, session).post(`/api/comments/delete/${commentId}`, {});

describe('comments', () => {
  it('lets a signed-in user comment and anyone read it, newest first, text kept as typed', async () => {
    const first = await comment(ids.owner, { body: '  Lovely evening, <script>x</script> thank you!  ' }, who.writer);
    expect(first.statusCode).toBe(200);
    const created = first.json().data;
    expect(created).toMatchObject({
      profile_id: ids.owner,
      author: { id: ids.writer, name: 'Walter <b>Writer</b>' },
      body: 'Lovely evening, <script>x</script> thank you!',
      can_delete: false,
    });
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await comment(ids.owner, { body: 'Second one' }, who.stranger);

    const visitor = await list(ids.owner);
    expect(visitor.statusCode).toBe(200);
    const page = visitor.json();
    expect(page).toMatchObject({ page: 1, has_more: false, total: 2, enabled: true, can_comment: false });
    expect(page.data.map((c: { body: string }) => c.body)).toEqual([
      'Second one',
      'Lovely evening, <script>x</script> thank you!',
    ]);
    expect(page.data.every((c: { can_delete: boolean }) => !c.can_delete)).toBe(true);

    expect((await list(ids.owner, who.stranger)).json()).toMatchObject({ can_comment: true });
    const own = (await list(ids.owner, who.owner)).json();
    expect(own.data.every((c: { can_delete: boolean }) => c.can_delete)).toBe(true);
  });

  it('needs a session to post, and a body', async () => {
    expect((await comment(ids.owner, { body: 'hello' })).statusCode).toBe(401);
    const blank = await comment(ids.owner, { body: '   ' }, who.writer);
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors.body).toEqual(["Comment can't be blank!"]);
    const long = await comment(ids.owner, { body: 'x'.repeat(1001) }, who.writer);
    expect(long.statusCode).toBe(422);
  });

  it('refuses comments when the owner turned them off and hides the old ones from the public', async () => {
    const res = await comment(ids.closed, { body: 'hello' }, who.writer);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Comments are turned off for this profile.');
    expect((await list(ids.closed)).json()).toMatchObject({ enabled: false, can_comment: false, data: [], total: 0 });
  });

  it('answers 404 for a profile the viewer may not see, and for a malformed id', async () => {
    expect((await list(ids.hidden)).statusCode).toBe(404);
    expect((await comment(ids.hidden, { body: 'hi' }, who.writer)).statusCode).toBe(404);
    expect((await list(ids.hidden, who.hidden)).statusCode).toBe(200);
    expect((await list(2147483000)).statusCode).toBe(404);
    expect((await as(t).get('/api/comments/abc')).statusCode).toBe(404);
  });

  it('lets the profile owner and admins delete, nobody else', async () => {
    const a = (await comment(ids.owner, { body: 'to be removed by the owner' }, who.writer)).json().data.id as number;
    const b = (await comment(ids.owner, { body: 'to be removed by an admin' }, who.writer)).json().data.id as number;
    expect((await remove(a)).statusCode).toBe(401);
    expect((await remove(a, who.stranger)).statusCode).toBe(403);
    // Writing a comment does not make it yours to delete: the profile belongs to someone else.
    expect((await remove(a, who.writer)).statusCode).toBe(403);
    const byOwner = await remove(a, who.owner);
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json()).toEqual({ data: { id: a, deleted: true } });
    expect((await remove(a, who.owner)).statusCode).toBe(404);
    expect((await remove(b, who.admin)).statusCode).toBe(200);
    const bodies = (await list(ids.owner)).json().data.map((c: { body: string }) => c.body);
    expect(bodies).not.toContain('to be removed by the owner');
    expect(bodies).not.toContain('to be removed by an admin');
  });

  it('hides comments of accounts that are no longer active', async () => {
    const spammer = (await createAdvertiser(t.ctx, { screenName: 'Sam Spammer' })).account.id;
    await comment(ids.owner, { body: 'buy now' }, await createSession(t.ctx, spammer));
    expect((await list(ids.owner)).json().data.map((c: { body: string }) => c.body)).toContain('buy now');
    await t.ctx.db.update(accounts).set({ status: 'suspended' }).where(eq(accounts.id, spammer));
    expect((await list(ids.owner)).json().data.map((c: { body: string }) => c.body)).not.toContain('buy now');
  });

  it('pages by 20', async () => {
    const target = (await createAdvertiser(t.ctx, { screenName: 'Paula Pages' })).account.id;
    const session = await createSession(t.ctx, target);
    for (let i = 0; i < 21; i++) {
      // The limiter allows 10 per 10 minutes per account: spread the posts over several writers.
      const writer = i % 3 === 0 ? who.admin : i % 3 === 1 ? who.stranger : session;
      expect((await comment(target, { body: `comment ${i}` }, writer)).statusCode).toBe(200);
    }
    const first = (await list(target)).json();
    expect(first).toMatchObject({ page: 1, has_more: true, total: 21 });
    expect(first.data).toHaveLength(20);
    const second = (await list(target, undefined, 2)).json();
    expect(second.data.map((c: { body: string }) => c.body)).toEqual(['comment 0']);
  });

  it('limits posting to 10 comments per 10 minutes per account', async () => {
    const target = (await createAdvertiser(t.ctx, { screenName: 'Rita Rate' })).account.id;
    const writer = await createSession(t.ctx, (await createAdvertiser(t.ctx)).account.id);
    for (let i = 0; i < 10; i++) expect((await comment(target, { body: `hi ${i}` }, writer)).statusCode).toBe(200);
    const limited = await comment(target, { body: 'one too many' }, writer);
    expect(limited.statusCode).toBe(429);
  });

  it('dates a comment and its deletion by the app clock', async () => {
    const writer = await createSession(t.ctx, (await createAdvertiser(t.ctx, { screenName: 'Tina Time' })).account.id);
    const realNow = t.ctx.now;
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000 + 678);
    t.ctx.now = () => at;
    try {
      const created = (await comment(ids.owner, { body: 'an hour ahead' }, writer)).json().data;
      expect(created.created_at).toBe(at.toISOString().replace('.678Z', 'Z'));
      expect((await list(ids.owner)).json().data[0]).toMatchObject({ id: created.id, created_at: created.created_at });
      const deletedAt = new Date(at.getTime() + 60_000);
      t.ctx.now = () => deletedAt;
      expect((await remove(created.id, who.owner)).statusCode).toBe(200);
      const [row] = await t.ctx.db.select().from(comments).where(eq(comments.id, created.id));
      expect(row.deletedAt).toEqual(deletedAt);
    } finally {
      t.ctx.now = realNow;
    }
  });
});
