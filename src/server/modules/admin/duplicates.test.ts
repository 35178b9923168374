// Duplicate pictures across accounts: a photo re-uploaded by another account, resized and re-compressed,
// is found by the scan (Hamming distance over the stored perceptual hashes); one's own pictures and
// unrelated ones are not; an admin dismisses a match and the audit log says so.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { jpegWithGps, multipart, picture } from '../../test/media-files';
import { scanDuplicates } from './duplicates';

let t: TestApp;
type Session = Awaited<ReturnType<typeof createSession>>;
let admin: Session;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  admin = await createSession(t.ctx, (await createAdvertiser(t.ctx, { role: 'admin' })).account.id);
});
afterAll(() => t.close());

async function person() {
  const { account } = await createAdvertiser(t.ctx);
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}

async function upload(session: Session, type: 'avatar' | 'gallery', body: Buffer): Promise<number> {
  const form = multipart(body);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/upload/photo/${type}`,
    cookies: session.cookies,
    headers: { ...session.headers, ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

describe('duplicate pictures across accounts', () => {
  it('finds a resized, re-compressed re-upload in another account, and nothing else', async () => {
    const owner = await person();
    const thief = await person();
    const stranger = await person();
    const original = await jpegWithGps({ seed: 61, width: 1200, height: 900 });
    const originalId = await upload(owner.session, 'gallery', original);
    // The owner's own second copy is no theft.
    await upload(owner.session, 'avatar', original);
    // Another account: the same photo at 60 % of the size, re-compressed hard.
    const copy = await sharp(original).resize(720).jpeg({ quality: 35 }).toBuffer();
    const copyId = await upload(thief.session, 'gallery', copy);
    await upload(
      stranger.session,
      'gallery',
      await (await picture({ seed: 62, width: 1200, height: 900 })).jpeg().toBuffer(),
    );

    expect(await scanDuplicates(t.ctx)).toBe(2);
    // A second scan finds nothing new: each picture is looked at once.
    expect(await scanDuplicates(t.ctx)).toBe(0);

    const res = await t.app.inject({ method: 'GET', url: '/api/admin/getDuplicates', ...admin });
    expect(res.statusCode, res.body).toBe(200);
    const matches = res.json().data as Array<{
      id: number;
      distance: number;
      newer: { media_id: number; user: { user_id: number }; picture: { src: string } };
      older: { media_id: number; user: { user_id: number } };
    }>;
    expect(matches).toHaveLength(2);
    for (const m of matches) {
      expect(m.newer.user.user_id).toBe(thief.id);
      expect(m.older.user.user_id).toBe(owner.id);
      expect(m.distance).toBeLessThanOrEqual(6);
      expect(m.newer.picture.src).toMatch(/^\/media\//);
    }
    expect(matches.map((m) => m.newer.media_id)).toEqual([copyId, copyId]);
    expect(matches.map((m) => m.older.media_id)).toContain(originalId);

    // Dismissed: it leaves the queue, the audit log records it, twice is refused.
    const dismiss = (id: number) =>
      t.app.inject({ method: 'POST', url: '/api/admin/dismissDuplicate', payload: { match_id: id }, ...admin });
    const done = await dismiss(matches[0].id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.status).toBe('dismissed');
    expect((await dismiss(matches[0].id)).statusCode).toBe(422);
    const open = (await t.app.inject({ method: 'GET', url: '/api/admin/getDuplicates?status=open', ...admin })).json();
    expect(open.data.map((m: { id: number }) => m.id)).toEqual([matches[1].id]);
    const log = await t.app.inject({
      method: 'POST',
      url: '/api/admin/getAuditLog',
      payload: { action: 'duplicate' },
      ...admin,
    });
    expect(log.json().data[0]).toMatchObject({ action: 'duplicate.dismiss', target: { id: thief.id } });

    // Deleting the copy (the warn) takes its matches with it.
    await t.app.inject({ method: 'GET', url: `/api/admin/warn/${thief.id}`, ...admin });
    const after = (await t.app.inject({ method: 'GET', url: '/api/admin/getDuplicates', ...admin })).json();
    expect(after.data).toEqual([]);
  });
});
