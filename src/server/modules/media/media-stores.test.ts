// The media a page shows, on each store the app can run on: the embedded default's directory and
// S3-compatible storage (s3rver, started by this run). Uploads and their variants are served with their
// type, a validator and ranges; a delete is gone; a photo ID stays private, named by no URL the app sends;
// a video is converted from what the store holds, not from the disk of the instance that took it.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media, verificationRequests } from '../../db/schema';
import { runDueJobs } from '../../lib/jobs';
import { jobHandlers } from '../../tasks';
import type { MediaStore, Visibility } from '../../lib/media-store';
import { as } from '../../test/as';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { jpegWithGps, multipart, videoWithLocation } from '../../test/media-files';
import { startS3, type TestS3 } from '../../test/s3';
import { approveVideo } from './video.service';

type Session = Awaited<ReturnType<typeof createSession>>;

async function keys(store: MediaStore, visibility: Visibility) {
  const out: string[] = [];
  for await (const k of store.list(visibility)) out.push(k);
  return out.sort();
}

/** Every file under a directory (nothing at all when it does not exist). */
function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

const urlsOf = (srcset: string) => srcset.split(', ').map((s) => s.split(' ')[0]);

describe.each(['local', 's3'] as const)('media on the %s store', (kind) => {
  let s3: TestS3 | null = null;
  let t: TestApp;
  let admin: { id: number; session: Session };

  beforeAll(async () => {
    if (kind === 's3') s3 = await startS3();
    t = await createTestApp(s3?.env ?? {});
    expect(t.ctx.media.kind).toBe(kind);
    await seedGeo(t.ctx);
    const account = (await createAdvertiser(t.ctx, { role: 'admin' })).account;
    admin = { id: account.id, session: await createSession(t.ctx, account.id) };
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  async function advertiser() {
    const { account } = await createAdvertiser(t.ctx, { about: 'Warm, witty and discreet.' });
    return { id: account.id, session: await createSession(t.ctx, account.id) };
  }

  function send(url: string, session: Session, body: Buffer, o: Parameters<typeof multipart>[1] = {}) {
    const form = multipart(body, o);
    return as(t, session).post(url, form.payload, { headers: form.headers });
  }

  it('serves every variant of an upload with its type, a validator and a year of caching; 304 when unchanged', async () => {
    const { session } = await advertiser();
    const res = await send('/api/upload/photo/avatar', session, await jpegWithGps({ width: 1600, height: 1200 }));
    expect(res.statusCode, res.body).toBe(200);
    const picture = res.json().data.picture;
    const urls = [...urlsOf(picture.srcset), ...urlsOf(picture.webp_srcset)];
    expect(urls).toHaveLength(6);
    for (const url of urls) {
      expect(url).toMatch(/^\/media\/u\/\d+\/[0-9a-f]{24}-\d+\.(jpg|webp)$/);
      const served = await as(t).get(url);
      expect(served.statusCode, url).toBe(200);
      expect(served.headers['content-type']).toBe(url.endsWith('.jpg') ? 'image/jpeg' : 'image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=2592000, immutable');
      expect(Number(served.headers['content-length'])).toBe(served.rawPayload.length);
      const stored = await t.ctx.media.get('public', url.slice('/media/'.length));
      expect(served.rawPayload.equals(stored!)).toBe(true);
      const etag = String(served.headers.etag);
      expect(etag).toMatch(/^".+"$/);
      const again = await as(t).get(url, { headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
    expect((await as(t).get('/media/u/1/nothing-here.jpg')).statusCode).toBe(404);
    expect((await as(t).get('/media/..%2F..%2Fsecret.key')).statusCode).toBe(404);
    // S3: the instance's own disk holds no media at all.
    if (kind === 's3') expect(filesIn(path.join(t.dataDir, 'media'))).toEqual([]);
  });

  it('a deleted picture is gone from the store and from its URLs', async () => {
    const { id, session } = await advertiser();
    const res = await send('/api/upload/photo/gallery', session, await jpegWithGps({ seed: 7 }));
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().data;
    const urls = [...urlsOf(item.picture.srcset), ...urlsOf(item.picture.webp_srcset)];
    for (const url of urls) expect((await as(t).get(url)).statusCode).toBe(200);
    const del = await as(t, session).post(`/api/edit/deleteMedia/${id}`, { id: item.id });
    expect(del.statusCode, del.body).toBe(200);
    for (const url of urls) expect((await as(t).get(url)).statusCode).toBe(404);
    expect((await keys(t.ctx.media, 'public')).filter((k) => k.startsWith(`u/${id}/`))).toEqual([]);
  });

  it('a photo ID is only on the private side, named by no answer, and an admin sees it through the app', async () => {
    const { id, session } = await advertiser();
    expect((await send('/api/upload/photo/avatar', session, await jpegWithGps({ seed: 4 }))).statusCode).toBe(200);
    const sent = await send(`/api/edit/verify/${id}`, session, await jpegWithGps({ seed: 5 }));
    expect(sent.statusCode, sent.body).toBe(200);
    const [row] = await t.ctx.db.select().from(verificationRequests).where(eq(verificationRequests.userId, id));
    expect(await keys(t.ctx.media, 'private')).toContain(row.photoIdKey);
    expect(await keys(t.ctx.media, 'public')).not.toContain(row.photoIdKey);
    expect((await as(t).get(`/media/${row.photoIdKey}`)).statusCode).toBe(404);
    const answers = [
      sent.body,
      (await as(t, session).get(`/api/edit/getVerification/${id}`)).body,
      (await as(t, admin.session).post('/api/admin/getVerificationData', {})).body,
    ];
    // The admin's queue names the request and its route, never the stored key or the bucket.
    expect(answers[2]).toContain(`/api/admin/photo-id/${row.id}`);
    for (const body of answers) {
      expect(body).not.toContain(row.photoIdKey!);
      if (s3) expect(body).not.toContain(s3.privateBucket);
    }
    const shown = await as(t, admin.session).get(`/api/admin/photo-id/${row.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(shown.rawPayload.equals((await t.ctx.media.get('private', row.photoIdKey!))!)).toBe(true);
    expect((await as(t, session).get(`/api/admin/photo-id/${row.id}`)).statusCode).toBe(403);
  });

  it('a video is converted from the store, then streamed by range to its owner and, once approved, to everyone', async () => {
    const { id, session } = await advertiser();
    const clip = await videoWithLocation();
    const up = await send(`/api/upload/video/${id}`, session, clip, { filename: 'clip.mp4', contentType: 'video/mp4' });
    expect(up.statusCode, up.body).toBe(200);
    const [staged] = await t.ctx.db.select().from(media).where(eq(media.userId, id));
    expect(staged.storageKey).toMatch(/^staging\//);
    expect((await t.ctx.media.get('private', staged.storageKey))!.equals(clip)).toBe(true);
    if (kind === 's3') expect(filesIn(path.join(t.dataDir, 'media'))).toEqual([]);

    // The worker's own handlers: the conversion, and the duplicate checks queued with the avatar.
    expect(await runDueJobs(t.ctx, jobHandlers)).toBeGreaterThanOrEqual(1);
    const [converted] = await t.ctx.db.select().from(media).where(eq(media.userId, id));
    expect(converted.status).toBe('pending');
    expect(await t.ctx.media.stat('private', staged.storageKey)).toBeNull();
    const mp4 = (await t.ctx.media.get('private', converted.storageKey))!;
    expect(mp4.length).toBeGreaterThan(1000);

    // The owner's player asks for ranges.
    const first = await as(t, session).get(`/api/edit/videoFile/${id}`, { headers: { range: 'bytes=0-99' } });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${mp4.length}`);
    expect(first.headers['content-type']).toBe('video/mp4');
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.rawPayload.equals(mp4.subarray(0, 100))).toBe(true);
    const whole = await as(t, session).get(`/api/edit/videoFile/${id}`);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(mp4)).toBe(true);

    await approveVideo(t.ctx, { mediaId: converted.id, actor: { id: admin.id, role: 'admin' } });
    const url = t.ctx.media.publicUrl(converted.storageKey);
    const tail = await as(t).get(url, { headers: { range: 'bytes=-50' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${mp4.length - 50}-${mp4.length - 1}/${mp4.length}`);
    expect(tail.rawPayload.equals(mp4.subarray(mp4.length - 50))).toBe(true);
    const past = await as(t).get(url, { headers: { range: `bytes=${mp4.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${mp4.length}`);
    const full = await as(t).get(url);
    expect(full.statusCode).toBe(200);
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.rawPayload.equals(mp4)).toBe(true);
    expect(await t.ctx.media.stat('private', converted.storageKey)).toBeNull();
    if (kind === 's3') expect(filesIn(path.join(t.dataDir, 'media'))).toEqual([]);
  });
});
