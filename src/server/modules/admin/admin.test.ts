// The admin panel's calls: search, the admin modal (getUserData, flag), warn, verification with the
// advertiser told, videos, the report queue (ordering with a moved clock), the photo-ID retention with a
// moved clock, the audit log (append-only, filterable) and the overview. Who may call them at all is
// the access walk's (auth/access-walk.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_ID_RETENTION_DAYS } from '#shared/constants.ts';
import { queryRows } from '../../db/client';
import { auditLog, media, profiles, verificationRequests } from '../../db/schema';
import { runDueJobs } from '../../lib/jobs';
import { as, type Requester } from '../../test/as';
import { createAdvertiser, createSession, LONDON, GB, seedGeo, type Session } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { filesUnder, jpegWithGps, multipart } from '../../test/media-files';
import { deleteExpiredPhotoIds } from '../verification/verification.service';
import { adminJobHandlers } from './admin.mail';

let t: TestApp;
let admin: { id: number; session: Session };
/** Requests as the admin, the panel's usual caller. */
let asAdmin: Requester;
const realNow = () => new Date();

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const account = (await createAdvertiser(t.ctx, { role: 'admin', username: 'root_admin' })).account;
  admin = { id: account.id, session: await createSession(t.ctx, account.id) };
  asAdmin = as(t, admin.session);
});
afterAll(() => t.close());

async function advertiser(o: Parameters<typeof createAdvertiser>[1] = {}) {
  const { account } = await createAdvertiser(t.ctx, { about: 'Hello.', ...o });
  return { id: account.id, username: account.username, session: await createSession(t.ctx, account.id) };
}

async function upload(url: string, session: Session, body: Buffer) {
  const form = multipart(body);
  const res = await as(t, session).post(url, form.payload, { headers: form.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Mails written to the outbox (no SMTP_URL in tests). */
const outbox = () =>
  filesUnder(path.join(t.dataDir, 'outbox'))
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) =>
        JSON.parse(fs.readFileSync(path.join(t.dataDir, 'outbox', f), 'utf8')) as {
          to: string;
          subject: string;
          text: string;
        },
    );

const auditOf = async (userId: number) =>
  t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, userId)).orderBy(auditLog.id);

describe('user search (no minimum length) and the admin modal', () => {
  it('finds by any part of screen name, email, login, phone (with or without spaces), id or city', async () => {
    const a = await advertiser({ username: 'searchable_sue', screenName: 'Suzanne Moreau', city: LONDON });
    const b = await advertiser({
      username: 'other_person',
      screenName: 'Berta Klein',
      city: { id: 2950159, countryCode: 'DE' },
    });
    await t.ctx.db.update(profiles).set({ phone: '+49 151 2345 6789' }).where(eq(profiles.userId, b.id));
    const ids = async (q: string) =>
      ((await asAdmin.post('/api/admin/search', { q })).json().data as Array<{ user_id: number }>).map(
        (u) => u.user_id,
      );

    expect(await ids('moreau')).toEqual([a.id]);
    expect(await ids('SEARCHABLE_sue@example')).toEqual([a.id]);
    expect(await ids('other_pers')).toEqual([b.id]);
    expect(await ids('15123456789')).toEqual([b.id]);
    expect(await ids('+49 151 2345')).toEqual([b.id]);
    expect(await ids('berlin')).toEqual([b.id]);
    expect(await ids(String(a.id))).toContain(a.id);
    expect((await ids(String(a.id)))[0]).toBe(a.id);
    // One character is a search too, and nothing at all lists everyone, newest first.
    expect(await ids('z')).toContain(a.id);
    const all = await ids('');
    expect(all[0]).toBeGreaterThan(all[all.length - 1]);
    expect(all).toEqual(expect.arrayContaining([a.id, b.id, admin.id]));
    // Wildcards are text: "%" finds nobody.
    expect(await ids('%')).toEqual([]);
  });

  it('getUserData answers user_id, screen_name, flagged and what the modal shows', async () => {
    const a = await advertiser({ screenName: 'Modal Mia' });
    const res = await asAdmin.get(`/api/admin/getUserData/${a.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      user_id: a.id,
      screen_name: 'Modal Mia',
      flagged: false,
      listed: true,
      balance: 0,
      media_count: 0,
      open_reports: 0,
    });
    expect((await asAdmin.get('/api/admin/getUserData/2147483000')).statusCode).toBe(404);
  });
});

describe('flag', () => {
  it('hides the profile from directory, search, sitemap and its page at once; toggles back; audited', async () => {
    const a = await advertiser({ screenName: 'Flaggable Fiona', heading: 'Fiona in London' });
    const inDirectory = async () => {
      const res = await as(t).post('/api/directory/getDirectory', {
        category: 'escorts',
        country: GB.slug,
        place: LONDON.slug,
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as Array<{ id: number }>).some((p) => p.id === a.id);
    };
    const inSearch = async () =>
      ((await as(t).post('/api/directory/search', { q: 'fiona' })).json().data as Array<{ id: number }>).some(
        (p) => p.id === a.id,
      );
    const publicPage = async () => (await as(t).get(`/api/getProfile/${a.id}`)).statusCode;
    const sitemap = async () => {
      const index = await as(t).get('/sitemap.xml');
      const parts = [...index.body.matchAll(/<loc>[^<]*?(\/sitemap[^<]*)<\/loc>/g)].map((m) => m[1]);
      let all = '';
      for (const p of parts) all += (await as(t).get(p)).body;
      return all.includes(`/profile/${a.id}<`);
    };

    expect(await inDirectory()).toBe(true);
    expect(await inSearch()).toBe(true);
    expect(await publicPage()).toBe(200);
    expect(await sitemap()).toBe(true);

    const flagged = await asAdmin.post('/api/admin/flag', { user_id: a.id });
    expect(flagged.statusCode, flagged.body).toBe(200);
    expect(flagged.json().data).toMatchObject({ user_id: a.id, flagged: true, listed: false });
    expect(await inDirectory()).toBe(false);
    expect(await inSearch()).toBe(false);
    expect(await publicPage()).toBe(404);
    expect(await sitemap()).toBe(false);

    // Without `flagged` it toggles; with it, it sets.
    expect((await asAdmin.post('/api/admin/flag', { user_id: a.id })).json().data.flagged).toBe(false);
    expect(await inDirectory()).toBe(true);
    expect((await asAdmin.post('/api/admin/flag', { user_id: a.id, flagged: true })).json().data.flagged).toBe(true);
    expect((await asAdmin.post('/api/admin/flag', { user_id: a.id, flagged: true })).json().data.flagged).toBe(true);

    const lines = await auditOf(a.id);
    expect(lines.map((l) => l.action)).toEqual(['user.flag', 'user.unflag', 'user.flag', 'user.flag']);
    expect(lines[0]).toMatchObject({
      actorId: admin.id,
      before: { flagged: false, listed: true, adStatus: 'visible' },
      after: { flagged: true, listed: false, adStatus: 'visible' },
    });
  });

  it('refuses unknown keys, a missing id and an advertiser, and then changes nothing', async () => {
    const a = await advertiser();
    const before = await auditOf(a.id);
    const bad = await asAdmin.post('/api/admin/flag', { user_id: a.id, hidden: true });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ message: expect.any(String), errors: expect.any(Object) });
    expect((await asAdmin.post('/api/admin/flag', {})).statusCode).toBe(422);
    expect((await asAdmin.post('/api/admin/flag', { user_id: 2147483000 })).statusCode).toBe(404);
    expect((await as(t, a.session).post('/api/admin/flag', { user_id: a.id })).statusCode).toBe(403);
    expect((await as(t).post('/api/admin/flag', { user_id: a.id })).statusCode).toBe(401);
    const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, a.id));
    expect(row.flagged).toBe(false);
    expect(await auditOf(a.id)).toEqual(before);
  });
});

describe('warn', () => {
  it('deletes every file, variant and row of the user, tells them by notice and mail, and is audited', async () => {
    const a = await advertiser();
    await upload('/api/upload/photo/avatar', a.session, await jpegWithGps({ seed: 21 }));
    await upload('/api/upload/photo/gallery', a.session, await jpegWithGps({ seed: 22 }));
    const mine = () => filesUnder(path.join(t.dataDir, 'media', 'public')).filter((f) => f.startsWith(`u/${a.id}/`));
    expect(mine().length).toBeGreaterThan(4);

    // A GET that deletes: refused without the CSRF header.
    const noCsrf = await t.app.inject({
      method: 'GET',
      url: `/api/admin/warn/${a.id}`,
      cookies: admin.session.cookies,
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(mine().length).toBeGreaterThan(4);

    const res = await asAdmin.get(`/api/admin/warn/${a.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ deleted: 2, user: { user_id: a.id, media_count: 0, avatar: null } });
    expect(mine()).toEqual([]);
    expect(await t.ctx.db.select().from(media).where(eq(media.userId, a.id))).toEqual([]);

    const list = (await as(t, a.session).get('/api/notices')).json();
    expect(list.data[0]).toMatchObject({ kind: 'warning', title: 'Warning from our moderators', read: false });
    expect(list.data[0].message).toMatch(/deleted all of your photos and videos/);

    const [line] = (await auditOf(a.id)).filter((l) => l.action === 'user.warn');
    expect(line).toMatchObject({ actorId: admin.id, before: { media: 2 }, after: { media: 0 } });

    await runDueJobs(t.ctx, adminJobHandlers);
    expect(outbox().find((m) => m.to === `${a.username}@example.test`)).toMatchObject({
      subject: 'Warning from our moderators',
    });
  });
});

describe('verification by an admin', () => {
  async function pendingRequest(seed: number) {
    const a = await advertiser();
    await upload('/api/upload/photo/avatar', a.session, await jpegWithGps({ seed }));
    await upload(`/api/edit/verify/${a.id}`, a.session, await jpegWithGps({ seed: seed + 1 }));
    const [row] = await t.ctx.db.select().from(verificationRequests).where(eq(verificationRequests.userId, a.id));
    return { ...a, requestId: row.id };
  }

  it('a newer decision replaces the older one: "declined" does not stay unread beside "verified" (issue 23, item 6)', async () => {
    const a = await pendingRequest(41);
    const first = await asAdmin.post('/api/admin/verify', {
      request_id: a.requestId,
      decision: 'declined',
      reason: 'avatar_no_clear_face',
    });
    expect(first.statusCode, first.body).toBe(200);
    await upload(`/api/edit/verify/${a.id}`, a.session, await jpegWithGps({ seed: 43 }));
    const rows = await t.ctx.db.select().from(verificationRequests).where(eq(verificationRequests.userId, a.id));
    const second = rows.find((r) => r.id !== a.requestId)!;
    const ok = await asAdmin.post('/api/admin/verify', { request_id: second.id, decision: 'verified' });
    expect(ok.statusCode, ok.body).toBe(200);
    const list = (await as(t, a.session).get('/api/notices')).json();
    const unread = (list.data as Array<{ kind: string; read: boolean }>).filter((n) => !n.read).map((n) => n.kind);
    expect(unread).toEqual(['verification_verified']);
    expect(list.unread).toBe(1);
    // Kept, read: the history is still there.
    expect(list.data.map((n: { kind: string }) => n.kind)).toEqual(['verification_verified', 'verification_declined']);
  });

  it('lists pending requests by default with the avatar and the private ID; verify and decline reach the advertiser', async () => {
    const one = await pendingRequest(31);
    const two = await pendingRequest(33);
    const queue = await asAdmin.post('/api/admin/getVerificationData', {});
    expect(queue.statusCode, queue.body).toBe(200);
    const items = queue.json().data as Array<{ id: number; photo_id_url: string; user: { avatar: unknown } }>;
    const ids = items.map((i) => i.id);
    expect(ids.indexOf(one.requestId)).toBeLessThan(ids.indexOf(two.requestId));
    const item = items.find((i) => i.id === one.requestId)!;
    expect(item.photo_id_url).toBe(`/api/admin/photo-id/${one.requestId}`);
    expect(item.user.avatar).toMatchObject({ src: expect.stringMatching(/^\/media\//) });

    // Declining needs one of the six reasons.
    const noReason = await asAdmin.post('/api/admin/verify', { request_id: two.requestId, decision: 'declined' });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors.reason).toEqual(["Reason can't be blank!"]);
    const badReason = await asAdmin.post('/api/admin/verify', {
      request_id: two.requestId,
      decision: 'declined',
      reason: 'ugly',
    });
    expect(badReason.statusCode).toBe(422);

    const ok = await asAdmin.post('/api/admin/verify', { request_id: one.requestId, decision: 'verified' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ status: 'verified', decided_at: expect.any(String) });
    const no = await asAdmin.post('/api/admin/verify', {
      request_id: two.requestId,
      decision: 'declined',
      reason: 'avatar_no_clear_face',
    });
    expect(no.json().data).toMatchObject({ status: 'declined', decline_reason: 'avatar_no_clear_face' });
    // Twice is refused.
    expect(
      (await asAdmin.post('/api/admin/verify', { request_id: one.requestId, decision: 'verified' })).statusCode,
    ).toBe(422);

    const state = async (a: typeof one) =>
      (await as(t, a.session).get(`/api/edit/getVerification/${a.id}`)).json().data;
    expect(await state(one)).toMatchObject({ status: 'verified', verified_at: expect.any(String) });
    expect((await state(two)).request).toMatchObject({ status: 'declined', decline_reason: 'avatar_no_clear_face' });

    const noticeOf = async (a: typeof one) => (await as(t, a.session).get('/api/notices')).json().data[0];
    expect(await noticeOf(one)).toMatchObject({ kind: 'verification_verified', title: 'Your profile is verified' });
    expect((await noticeOf(two)).message).toMatch(/does not show a clear face/);

    await runDueJobs(t.ctx, adminJobHandlers);
    const mails = outbox();
    expect(mails.find((m) => m.to === `${one.username}@example.test`)).toMatchObject({
      subject: 'Your profile is verified',
    });
    const declinedMail = mails.find((m) => m.to === `${two.username}@example.test`)!;
    expect(declinedMail.subject).toBe('Verification declined');
    expect(declinedMail.text).toMatch(/does not show a clear face/);

    const declined = await asAdmin.post('/api/admin/getVerificationData', { status: 'declined' });
    expect((declined.json().data as Array<{ id: number }>).map((i) => i.id)).toContain(two.requestId);
    const lines = await auditOf(two.id);
    expect(lines.find((l) => l.action === 'verification.declined')).toMatchObject({
      actorId: admin.id,
      before: { status: 'pending' },
      after: { status: 'declined', reason: 'avatar_no_clear_face' },
    });
  });

  it('deletes the photo ID 30 days after the decision, on a moved clock', async () => {
    const a = await pendingRequest(41);
    // In the past: the test's sessions are real and must stay valid on the moved clock.
    const decidedAt = new Date(Date.now() - 60 * 86_400_000);
    t.ctx.now = () => decidedAt;
    try {
      const res = await asAdmin.post('/api/admin/verify', { request_id: a.requestId, decision: 'verified' });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      t.ctx.now = realNow;
    }
    const privateIds = () =>
      filesUnder(path.join(t.dataDir, 'media', 'private')).filter((f) => f.startsWith(`photo-id/${a.id}/`));
    expect(privateIds()).toHaveLength(1);
    const day = 86_400_000;
    const later = (ms: number) => {
      t.ctx.now = () => new Date(decidedAt.getTime() + ms);
    };
    try {
      later((PHOTO_ID_RETENTION_DAYS - 1) * day);
      await deleteExpiredPhotoIds(t.ctx);
      expect(privateIds()).toHaveLength(1);
      later(PHOTO_ID_RETENTION_DAYS * day + 60_000);
      await deleteExpiredPhotoIds(t.ctx);
      expect(privateIds()).toEqual([]);
    } finally {
      t.ctx.now = realNow;
    }
    const [row] = await t.ctx.db.select().from(verificationRequests).where(eq(verificationRequests.id, a.requestId));
    expect(row).toMatchObject({ status: 'verified', photoIdKey: null });
    const queue = await asAdmin.post('/api/admin/getVerificationData', { status: 'verified' });
    expect(
      (queue.json().data as Array<{ id: number; photo_id_url: string | null }>).find((i) => i.id === a.requestId),
    ).toMatchObject({ photo_id_url: null });
  });
});

describe('videos', () => {
  it('lists pending videos oldest first; approving makes it public on the profile, rejecting deletes it', async () => {
    const make = async (name: string) => {
      const a = await advertiser();
      const key = `v/${a.id}/${name}.mp4`;
      await t.ctx.media.put('private', key, Buffer.from('not really a video'), 'video/mp4');
      const [row] = await t.ctx.db
        .insert(media)
        .values({ userId: a.id, type: 'video', status: 'pending', storageKey: key, mime: 'video/mp4', duration: 12 })
        .returning();
      return { ...a, mediaId: row.id, key };
    };
    const first = await make('one');
    const second = await make('two');
    const list = await asAdmin.get('/api/admin/getVideos?page=1');
    expect(list.statusCode, list.body).toBe(200);
    const ids = (list.json().data as Array<{ id: number }>).map((v) => v.id);
    expect(ids.indexOf(first.mediaId)).toBeLessThan(ids.indexOf(second.mediaId));
    expect(list.json().data.find((v: { id: number }) => v.id === first.mediaId).url).toBe(
      `/api/edit/videoFile/${first.id}`,
    );

    expect((await asAdmin.post(`/api/admin/verifyVideo/${first.mediaId}`, { decision: 'maybe' })).statusCode).toBe(422);
    const ok = await asAdmin.post(`/api/admin/verifyVideo/${first.mediaId}`, { decision: 'approved' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ id: first.mediaId, user_id: first.id, status: 'approved' });
    const profile = (await as(t).get(`/api/getProfile/${first.id}`)).json().profile;
    expect(profile.video).toEqual(expect.stringContaining(first.key));

    const no = await asAdmin.post(`/api/admin/verifyVideo/${second.mediaId}`, {
      decision: 'rejected',
      reason: 'No face',
    });
    expect(no.json().data.status).toBe('rejected');
    expect(filesUnder(path.join(t.dataDir, 'media', 'private'))).not.toContain(second.key);
    expect((await asAdmin.post(`/api/admin/verifyVideo/${second.mediaId}`, { decision: 'approved' })).statusCode).toBe(
      422,
    );
    expect((await auditOf(first.id)).map((l) => l.action)).toContain('video.approve');
    expect((await auditOf(second.id)).find((l) => l.action === 'video.reject')).toMatchObject({
      before: { status: 'pending' },
      after: { status: 'rejected' },
    });
  });
});

describe('reports', () => {
  it('puts "may be under 18" and "not of their own free will" first, then the oldest (moved clock)', async () => {
    const target = await advertiser({ screenName: 'Reported Rita' });
    await t.ctx.db.execute(sql`update feedback set status = 'resolved' where status = 'open'`);
    const base = Date.now() - 10 * 86_400_000;
    const hour = 3_600_000;
    const report = async (reason: string, hoursAgo: number, n: number) => {
      t.ctx.now = () => new Date(base - hoursAgo * hour);
      try {
        const res = await as(t).post(
          '/api/directory/setFeedback',
          { data: { profile_id: target.id, reason, message: `report ${n}` } },
          { remoteAddress: `10.9.9.${n}` },
        );
        expect(res.statusCode, res.body).toBe(200);
      } finally {
        t.ctx.now = realNow;
      }
    };
    await report('spam', 50, 1);
    await report('not_free_will', 2, 2);
    await report('other', 70, 3);
    await report('may_be_under_18', 10, 4);
    await report('fake_photos', 1, 5);

    t.ctx.now = () => new Date(base);
    try {
      const res = await asAdmin.post('/api/admin/getReports', {});
      expect(res.statusCode, res.body).toBe(200);
      const queue = res.json().data as Array<{
        reason: string;
        age_hours: number;
        urgent: boolean;
        profile: { user_id: number };
      }>;
      expect(queue.map((r) => [r.reason, r.age_hours, r.urgent])).toEqual([
        ['may_be_under_18', 10, true],
        ['not_free_will', 2, true],
        ['other', 70, false],
        ['spam', 50, false],
        ['fake_photos', 1, false],
      ]);
      expect(queue[0].profile.user_id).toBe(target.id);
      expect(res.json().total).toBe(5);
    } finally {
      t.ctx.now = realNow;
    }
  });

  it('resolves with a note and an action (flag, hide, warn, none); twice is refused', async () => {
    const target = await advertiser();
    const send = async (reason: string) => {
      await as(t).post(
        '/api/directory/setFeedback',
        { data: { profile_id: target.id, reason } },
        { remoteAddress: `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
      );
      const open = (await asAdmin.post('/api/admin/getReports', { status: 'open' })).json().data as Array<{
        id: number;
        profile: { user_id: number } | null;
      }>;
      return open.find((r) => r.profile?.user_id === target.id)!.id;
    };
    const first = await send('may_be_under_18');
    expect((await asAdmin.post('/api/admin/resolveReport', { report_id: first, action: 'flag' })).statusCode).toBe(422);
    expect(
      (await asAdmin.post('/api/admin/resolveReport', { report_id: first, action: 'ban', note: 'x' })).statusCode,
    ).toBe(422);
    const flagged = await asAdmin.post('/api/admin/resolveReport', {
      report_id: first,
      action: 'flag',
      note: 'Looks under age; asked for ID.',
    });
    expect(flagged.statusCode, flagged.body).toBe(200);
    expect(flagged.json().data).toMatchObject({
      status: 'resolved',
      resolution_action: 'flag',
      resolution_note: 'Looks under age; asked for ID.',
      resolved_by: admin.id,
      profile: { user_id: target.id, flagged: true, listed: false },
    });
    const again = await asAdmin.post('/api/admin/resolveReport', { report_id: first, action: 'none', note: 'again' });
    expect(again.statusCode).toBe(422);

    const second = await send('spam');
    const hidden = await asAdmin.post('/api/admin/resolveReport', {
      report_id: second,
      action: 'hide',
      note: 'Spam ad.',
    });
    expect(hidden.json().data.resolution_action).toBe('hide');
    const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, target.id));
    expect(row.adStatus).toBe('hidden');

    await upload('/api/upload/photo/gallery', target.session, await jpegWithGps({ seed: 51 }));
    const third = await send('fake_photos');
    const warned = await asAdmin.post('/api/admin/resolveReport', {
      report_id: third,
      action: 'warn',
      note: 'Stolen.',
    });
    expect(warned.statusCode, warned.body).toBe(200);
    expect(await t.ctx.db.select().from(media).where(eq(media.userId, target.id))).toEqual([]);

    const resolved = await asAdmin.post('/api/admin/getReports', { status: 'resolved' });
    expect((resolved.json().data as Array<{ id: number }>).slice(0, 3).map((r) => r.id)).toEqual([
      third,
      second,
      first,
    ]);
    const actions = (await auditOf(target.id)).map((l) => l.action);
    expect(actions).toEqual(['report.resolve', 'report.resolve', 'user.warn', 'report.resolve']);
  });
});

describe('audit log', () => {
  it('is append-only', async () => {
    const refusal = (query: ReturnType<typeof sql>) =>
      t.ctx.db.execute(query).then(
        () => 'accepted',
        (err: Error & { cause?: Error }) => String(err.cause?.message ?? err.message),
      );
    expect(await refusal(sql`update audit_log set action = 'x'`)).toMatch(/append-only/);
    expect(await refusal(sql`delete from audit_log`)).toMatch(/append-only/);
    expect(await refusal(sql`truncate audit_log`)).toMatch(/append-only/);
  });

  it('reads newest first, filtered by action family, actor, target and dates; names the people', async () => {
    const a = await advertiser({ screenName: 'Audited Ada' });
    await asAdmin.post('/api/admin/flag', { user_id: a.id });
    await asAdmin.post('/api/admin/flag', { user_id: a.id });
    const res = await asAdmin.post('/api/admin/getAuditLog', { target_user_id: a.id });
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().data;
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['user.unflag', 'user.flag']);
    expect(entries[1]).toMatchObject({
      actor: { id: admin.id, username: 'root_admin' },
      target: { id: a.id, screen_name: 'Audited Ada' },
      before: { flagged: false },
      after: { flagged: true },
    });
    const family = (await asAdmin.post('/api/admin/getAuditLog', { action: 'user', target_user_id: a.id })).json().data;
    expect(family).toHaveLength(2);
    const exact = (await asAdmin.post('/api/admin/getAuditLog', { action: 'user.flag', target_user_id: a.id })).json()
      .data;
    expect(exact).toHaveLength(1);
    const byActor = (await asAdmin.post('/api/admin/getAuditLog', { actor_id: admin.id })).json().data;
    expect(byActor.length).toBeGreaterThan(0);
    const future = (await asAdmin.post('/api/admin/getAuditLog', { from: '2100-01-01' })).json().data;
    expect(future).toEqual([]);
    expect((await asAdmin.post('/api/admin/getAuditLog', { action: "x' or 1=1" })).statusCode).toBe(422);
    // Days PostgreSQL cannot store (year 0), or whose next day it cannot: a 422 naming the range, not a 500.
    for (const range of [
      { from: '0000-01-01' },
      { until: '9999-12-31' },
      { from: '1899-12-31' },
      { until: '3000-01-01' },
    ]) {
      const refused = await asAdmin.post('/api/admin/getAuditLog', range);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().errors[Object.keys(range)[0]]).toEqual(['Dates lie between 1900-01-01 and 2999-12-31.']);
    }
    expect((await asAdmin.post('/api/admin/getAuditLog', { from: '1900-01-01', until: '2999-12-31' })).statusCode).toBe(
      200,
    );
  });

  it('records product price changes with before and after', async () => {
    const res = await asAdmin.post('/api/admin/products', { code: 'standard_topup', price: 700 });
    expect(res.statusCode, res.body).toBe(200);
    const [line] = (await asAdmin.post('/api/admin/getAuditLog', { action: 'money.product' })).json().data;
    expect(line).toMatchObject({ before: { price: 500 }, after: { price: 700 }, actor: { id: admin.id } });
  });
});

describe('overview', () => {
  it('counts and 30-day series', async () => {
    const res = await asAdmin.get('/api/admin/getOverview');
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().data;
    expect(o.days).toHaveLength(30);
    expect(o.days[29]).toBe(new Date().toISOString().slice(0, 10));
    expect(o.counts.accounts).toBeGreaterThan(5);
    expect(o.series.new_accounts[29]).toBe(o.counts.new_accounts_30d);
    expect(o.series.listed_profiles[29]).toBe(o.counts.listed_profiles);
    expect(o.series.pending_verifications).toHaveLength(30);
    expect(o.counts.open_reports).toBe(
      Object.values(o.counts.open_reports_by_reason as Record<string, number>).reduce((a, b) => a + b, 0),
    );
    const [{ n }] = await queryRows<{ n: number }>(t.ctx.db, sql`select count(*)::int as n from profiles where listed`);
    expect(o.counts.listed_profiles).toBe(Number(n));
  });
});
