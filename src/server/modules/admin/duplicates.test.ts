// Duplicate pictures across accounts: a photo re-uploaded by another account, resized and re-compressed,
// is found by the scan (Hamming distance over the stored perceptual hashes); one's own pictures and
// unrelated ones are not; an admin dismisses a match and the audit log says so.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { jpegWithGps, multipart, picture } from '../../test/media-files';
import { eq } from 'drizzle-orm';
import { media } from '../../db/schema';
import { runDueJobs } from '../../lib/jobs';
import { DUPLICATE_MAX_DISTANCE, duplicateJobHandlers, rehashPictures, scanDuplicates } from './duplicates';

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
      expect(m.distance).toBeLessThanOrEqual(DUPLICATE_MAX_DISTANCE);
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

/** A photo-like noise texture (what the hash before 0507 missed once resized) under a few soft shapes. */
async function texture(seed: number): Promise<Buffer> {
  const width = 900;
  const height = 1200;
  const data = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < data.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    data[i] = 60 + ((x >>> 16) % 140);
  }
  const noise = await sharp(data, { raw: { width, height, channels: 3 } })
    .blur(1.2)
    .png()
    .toBuffer();
  const shapes = await (await picture({ seed, width, height })).png().toBuffer();
  return sharp(noise)
    .composite([{ input: shapes, blend: 'soft-light' }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

async function queue(): Promise<Array<{ newer: number; older: number; distance: number }>> {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/getDuplicates', ...admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((m: { newer: { media_id: number }; older: { media_id: number }; distance: number }) => ({
    newer: m.newer.media_id,
    older: m.older.media_id,
    distance: m.distance,
  }));
}

describe('each picture is checked when it is stored (0507)', () => {
  it('finds a mirrored, resized copy and a resized texture in another account without a scan', async () => {
    const owner = await person();
    const thief = await person();
    const photo = await jpegWithGps({ seed: 71, width: 1200, height: 900 });
    const grain = await texture(5);
    const photoId = await upload(owner.session, 'gallery', photo);
    const grainId = await upload(owner.session, 'gallery', grain);
    const mirrored = await sharp(photo).flop().resize(800).jpeg({ quality: 60 }).toBuffer();
    const resized = await sharp(grain).resize(360).jpeg({ quality: 50 }).toBuffer();
    const mirroredId = await upload(thief.session, 'gallery', mirrored);
    const resizedId = await upload(thief.session, 'gallery', resized);

    // The jobs queued with the uploads, not the scan, put both pairs in the queue.
    await runDueJobs(t.ctx, duplicateJobHandlers);
    const pairs = await queue();
    expect(pairs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ newer: mirroredId, older: photoId }),
        expect.objectContaining({ newer: resizedId, older: grainId }),
      ]),
    );
    // Nothing else: the photo and the texture are not taken for each other.
    const mine = pairs.filter((p) => [photoId, grainId].includes(p.older));
    expect(mine).toHaveLength(2);
    // The scan after them finds nothing new for these pictures.
    await scanDuplicates(t.ctx);
    expect((await queue()).filter((p) => [photoId, grainId].includes(p.older))).toHaveLength(2);
  });

  it('re-hashes pictures stored under the older hash and then finds their copies; a lost file loses its hash', async () => {
    const owner = await person();
    const thief = await person();
    const photo = await jpegWithGps({ seed: 83, width: 1000, height: 1000 });
    const oldId = await upload(owner.session, 'gallery', photo);
    const goneId = await upload(owner.session, 'gallery', await jpegWithGps({ seed: 84 }));
    // What a picture stored before 0507 looks like: version 1, a hash the new one cannot be compared with.
    const [row] = await t.ctx.db
      .update(media)
      .set({ phashVersion: 1, phash: 0x5a5a5a5a5a5a5a5an, phashMirror: null })
      .where(eq(media.id, oldId))
      .returning();
    const [gone] = await t.ctx.db.update(media).set({ phashVersion: 1 }).where(eq(media.id, goneId)).returning();
    await t.ctx.media.delete('public', gone.storageKey);

    const copyId = await upload(
      thief.session,
      'gallery',
      await sharp(photo).resize(600).jpeg({ quality: 45 }).toBuffer(),
    );
    await runDueJobs(t.ctx, duplicateJobHandlers);
    // Not comparable yet: the old row is left out rather than matched on a meaningless distance.
    expect((await queue()).some((p) => p.older === oldId || p.newer === copyId)).toBe(false);

    expect(await rehashPictures(t.ctx)).toBeGreaterThanOrEqual(1);
    expect((await queue()).filter((p) => p.newer === copyId && p.older === oldId)).toHaveLength(1);
    const [rehashed] = await t.ctx.db.select().from(media).where(eq(media.id, oldId));
    expect(rehashed.phashVersion).toBeGreaterThan(1);
    expect(rehashed.phash).not.toBe(row.phash);
    expect(rehashed.phashMirror).not.toBeNull();
    const [lost] = await t.ctx.db.select().from(media).where(eq(media.id, goneId));
    expect(lost.phash).toBeNull();
    // Nothing of an older version is left to visit.
    expect(await rehashPictures(t.ctx)).toBe(0);
  });
});
