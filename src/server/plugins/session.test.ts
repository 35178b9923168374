import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema';
import { createAdvertiser, createSession, seedGeo } from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';
import { hashToken, SESSION_IDLE_MS } from './session';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

const getData = (cookies: Record<string, string>, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/app/getData/1', cookies, headers });

describe('session guard', () => {
  it('ends a session left unused for a week, however far its expiry', async () => {
    const { account } = await createAdvertiser(t.ctx);
    const s = await createSession(t.ctx, account.id);
    expect((await getData(s.cookies, s.headers)).statusCode).toBe(200);
    await t.ctx.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - SESSION_IDLE_MS - 60_000) })
      .where(eq(sessions.id, hashToken(s.cookies.sid)));
    expect((await getData(s.cookies, s.headers)).statusCode).toBe(401);
  });

  it('keeps an active session alive by recording its use (at most every few minutes)', async () => {
    const { account } = await createAdvertiser(t.ctx);
    const s = await createSession(t.ctx, account.id);
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3600_000);
    await t.ctx.db
      .update(sessions)
      .set({ lastSeenAt: sixDaysAgo })
      .where(eq(sessions.id, hashToken(s.cookies.sid)));
    expect((await getData(s.cookies, s.headers)).statusCode).toBe(200);
    const [row] = await t.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, hashToken(s.cookies.sid)));
    expect(Date.now() - row.lastSeenAt.getTime()).toBeLessThan(60_000);
  });

  it('refuses a state-changing call without the CSRF header', async () => {
    const { account } = await createAdvertiser(t.ctx);
    const s = await createSession(t.ctx, account.id);
    const res = await getData(s.cookies, {});
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/session token/);
  });
});
