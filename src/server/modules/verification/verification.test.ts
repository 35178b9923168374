// Verification requests: an avatar first, the photo ID private (no public URL, admins only, metadata
// stripped), pending -> verified with its date or declined with a reason, a new ID after a decline, and
// the ID deleted PHOTO_ID_RETENTION_DAYS after the decision.
import path from 'node:path';
import exifr from 'exifr';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_ID_RETENTION_DAYS } from '#shared/constants.ts';
import { auditLog, verificationRequests } from '../../db/schema';
import { atClock, hoursFromNow } from '../../test/clock';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { filesUnder, jpegWithGps, multipart } from '../../test/media-files';
import { decideVerification, deleteExpiredPhotoIds } from './verification.service';

let t: TestApp;
let admin: { id: number; session: Awaited<ReturnType<typeof createSession>> };

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const account = (await createAdvertiser(t.ctx, { role: 'admin' })).account;
  admin = { id: account.id, session: await createSession(t.ctx, account.id) };
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<typeof createSession>>;

async function advertiser() {
  const { account } = await createAdvertiser(t.ctx, { about: 'Hi.' });
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}

async function send(path: string, session: Session, body: Buffer) {
  const form = multipart(body);
  return t.app.inject({
    method: 'POST',
    url: path,
    cookies: session.cookies,
    headers: { ...session.headers, ...form.headers },
    payload: form.payload,
  });
}

const state = async (id: number, session: Session) =>
  (await t.app.inject({ method: 'GET', url: `/api/edit/getVerification/${id}`, ...session })).json().data;

describe('verification requests', () => {
  it("log an admin's look at an ID at the app clock", async () => {
    const { id, session } = await advertiser();
    await send('/api/upload/photo/avatar', session, await jpegWithGps({ seed: 4 }));
    expect((await send(`/api/edit/verify/${id}`, session, await jpegWithGps({ seed: 5 }))).statusCode).toBe(200);
    const [row] = await t.ctx.db.select().from(verificationRequests).where(eq(verificationRequests.userId, id));
    const at = hoursFromNow(3);
    const shown = await atClock(t.ctx, at, () =>
      t.app.inject({ method: 'GET', url: `/api/admin/photo-id/${row.id}`, ...admin.session }),
    );
    expect(shown.statusCode).toBe(200);
    const views = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, id));
    expect(views.filter((v) => v.action === 'verification.viewPhotoId').map((v) => v.createdAt)).toEqual([at]);
  });

  it('are refused without an avatar: "You must first upload an avatar."', async () => {
    const { id, session } = await advertiser();
    const before = filesUnder(t.dataDir);
    const res = await send(`/api/edit/verify/${id}`, session, await jpegWithGps());
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'You must first upload an avatar.',
      errors: { avatar: ['You must first upload an avatar.'] },
    });
    expect(await t.ctx.db.select().from(verificationRequests).where(eq(verificationRequests.userId, id))).toEqual([]);
    expect(filesUnder(t.dataDir)).toEqual(before);
    expect(await state(id, session)).toMatchObject({ status: 'none', has_avatar: false, can_request: false });
  });

  it('keep the ID private and stripped, readable by an admin only; verified shows its date', async () => {
    const { id, session } = await advertiser();
    await send('/api/upload/photo/avatar', session, await jpegWithGps({ seed: 1 }));
    const publicBefore = filesUnder(path.join(t.dataDir, 'media', 'public'));
    const res = await send(`/api/edit/verify/${id}`, session, await jpegWithGps({ seed: 2 }));
    expect(res.statusCode, res.body).toBe(200);
    const pending = res.json().data;
    expect(pending).toMatchObject({ status: 'pending', can_request: false, retention_days: PHOTO_ID_RETENTION_DAYS });
    expect(pending.request).toMatchObject({ status: 'pending', decided_at: null, photo_id_delete_after: null });
    // Nothing new under the public directory: the ID has no URL at all.
    expect(filesUnder(path.join(t.dataDir, 'media', 'public'))).toEqual(publicBefore);
    const [row] = await t.ctx.db.select().from(verificationRequests).where(eq(verificationRequests.userId, id));
    expect((await t.app.inject({ method: 'GET', url: `/media/${row.photoIdKey}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/media/../private/${row.photoIdKey}` })).statusCode).toBe(404);

    const url = `/api/admin/photo-id/${row.id}`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url, ...session })).statusCode).toBe(403);
    const shown = await t.app.inject({ method: 'GET', url, ...admin.session });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(shown.headers['cache-control']).toBe('private, no-store');
    expect(await exifr.gps(shown.rawPayload)).toBeUndefined();
    const views = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, id));
    expect(views.map((v) => v.action)).toContain('verification.viewPhotoId');

    // A second request while pending is refused.
    const again = await send(`/api/edit/verify/${id}`, session, await jpegWithGps({ seed: 3 }));
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toMatch(/pending: an admin reviews it within 24 hours/);

    await decideVerification(t.ctx, {
      requestId: row.id,
      actor: { id: admin.id, role: 'admin' },
      decision: 'verified',
    });
    const verified = await state(id, session);
    expect(verified.status).toBe('verified');
    expect(verified.verified_at).toEqual(expect.any(String));
    const profile = (await t.app.inject({ method: 'GET', url: `/api/getProfile/${id}` })).json().profile;
    expect(profile.verified).toBe(true);
    expect(profile.verified_at).toBe(verified.verified_at);
  });

  it('declined: the reason shows, a new ID may be sent, and IDs go 30 days after the decision', async () => {
    const { id, session } = await advertiser();
    await send('/api/upload/photo/avatar', session, await jpegWithGps({ seed: 4 }));
    await send(`/api/edit/verify/${id}`, session, await jpegWithGps({ seed: 5 }));
    const [row] = await t.ctx.db.select().from(verificationRequests).where(eq(verificationRequests.userId, id));
    const actor = { id: admin.id, role: 'admin' as const };
    await expect(decideVerification(t.ctx, { requestId: row.id, actor, decision: 'declined' })).rejects.toThrow();
    await decideVerification(t.ctx, { requestId: row.id, actor, decision: 'declined', reason: 'id_no_match' });
    const declined = await state(id, session);
    expect(declined).toMatchObject({ status: 'declined', can_request: true });
    expect(declined.request).toMatchObject({
      status: 'declined',
      decline_reason: 'id_no_match',
      photo_id_deleted: false,
    });
    const deleteAfter = new Date(declined.request.photo_id_delete_after).getTime();
    const decidedAt = new Date(declined.request.decided_at).getTime();
    expect(deleteAfter - decidedAt).toBe(PHOTO_ID_RETENTION_DAYS * 86_400_000);
    await expect(decideVerification(t.ctx, { requestId: row.id, actor, decision: 'verified' })).rejects.toThrow();

    const second = await send(`/api/edit/verify/${id}`, session, await jpegWithGps({ seed: 6 }));
    expect(second.statusCode).toBe(200);
    expect(second.json().data.status).toBe('pending');

    const privateDir = path.join(t.dataDir, 'media', 'private');
    const mine = () => filesUnder(privateDir).filter((f) => f.startsWith(`photo-id/${id}/`));
    expect(mine()).toHaveLength(2);
    // A day before the deadline nothing goes; after it the declined request's ID goes.
    await deleteExpiredPhotoIds(t.ctx, new Date(deleteAfter - 86_400_000));
    expect(mine()).toHaveLength(2);
    expect(await deleteExpiredPhotoIds(t.ctx, new Date(deleteAfter + 1000))).toBeGreaterThanOrEqual(1);
    expect(mine()).toHaveLength(1);
    const [first] = await t.ctx.db.select().from(verificationRequests).where(eq(verificationRequests.id, row.id));
    expect(first).toMatchObject({ photoIdKey: null, status: 'declined' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/admin/photo-id/${row.id}`, ...admin.session })).statusCode,
    ).toBe(404);
  });
});
