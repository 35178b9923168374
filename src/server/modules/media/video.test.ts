// Videos: ffprobe refuses what is not a video (nothing written), the job converts without metadata and
// reports progress, a pending video stays private until an admin approves it, and deleting it needs
// the CSRF header even though the spec makes it a GET.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs, media } from '../../db/schema';
import { runDueJobs, startWorker, type Worker } from '../../lib/jobs';
import type { MediaStore } from '../../lib/media-store';
import { atClock, hoursFromNow } from '../../test/clock';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { filesUnder, jpegWithGps, multipart, probeTags, videoWithLocation } from '../../test/media-files';
import { convertVideo, posterFrame, probeVideo } from './video-pipeline';
import { approveVideo, listPendingVideos, rejectVideo, VIDEO_JOB } from './video.service';
import { mediaJobHandlers, processVideoJob } from './video.job';

let t: TestApp;
let mediaDir: string;
let clip: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  mediaDir = path.join(t.dataDir, 'media');
  clip = await videoWithLocation();
});
afterAll(() => t.close());

async function advertiser() {
  const { account } = await createAdvertiser(t.ctx, { about: 'Hello there.' });
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}
type Session = Awaited<ReturnType<typeof createSession>>;

function uploadVideo(id: number, session: Session, body: Buffer, o: Parameters<typeof multipart>[1] = {}) {
  const form = multipart(body, { filename: 'clip.mp4', contentType: 'video/mp4', ...o });
  return t.app.inject({
    method: 'POST',
    url: `/api/upload/video/${id}`,
    cookies: session.cookies,
    headers: { ...session.headers, ...form.headers },
    payload: form.payload,
  });
}

const rowsOf = (userId: number) => t.ctx.db.select().from(media).where(eq(media.userId, userId));
const publicProfile = async (id: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/getProfile/${id}` })).json().profile;

describe('bad videos get a clear error and change nothing', () => {
  const cases: Array<[string, () => Promise<Buffer>, Parameters<typeof multipart>[1], RegExp]> = [
    [
      'a text file named .mp4',
      async () => Buffer.from('not a video at all\n'.repeat(100)),
      {},
      /not a video we accept/,
    ],
    ['a picture named .mp4', () => jpegWithGps(), {}, /not a video we accept/],
    ['a video sent as image/jpeg', async () => clip, { contentType: 'image/jpeg' }, /says it is image\/jpeg/],
    ['half a video', async () => clip.subarray(0, Math.floor(clip.length / 3)), {}, /not a video we accept/],
  ];

  it.each(cases)('%s', async (_name, make, form, message) => {
    const { id, session } = await advertiser();
    const before = filesUnder(mediaDir);
    const jobsBefore = await t.ctx.db.select().from(jobs);
    const res = await uploadVideo(id, session, await make(), form);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.file[0]).toMatch(message);
    expect(await rowsOf(id)).toEqual([]);
    expect(filesUnder(mediaDir)).toEqual(before);
    expect(await t.ctx.db.select().from(jobs)).toHaveLength(jobsBefore.length);
  });
});

describe('a video goes through the job, waits for an admin and only then is public', () => {
  it('is converted without metadata, hidden while pending, shown once approved', async () => {
    const { id, session } = await advertiser();
    const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account;
    // The uploaded clip carries a place and a time.
    const tags = await probeTags(clip);
    expect(JSON.stringify(tags)).toMatch(/51\.5074/);

    const res = await uploadVideo(id, session, clip);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'processing', progress: 0, url: null });
    const progress = () => t.app.inject({ method: 'GET', url: `/api/edit/videoProgress/${id}`, ...session });
    expect((await progress()).json().data.status).toBe('processing');
    // Nothing public exists for it yet.
    const publicBefore = filesUnder(path.join(mediaDir, 'public'));

    expect(await runDueJobs(t.ctx, mediaJobHandlers)).toBe(1);
    const pending = (await progress()).json().data;
    expect(pending).toMatchObject({ status: 'pending', progress: 100, url: `/api/edit/videoFile/${id}` });
    expect(filesUnder(path.join(mediaDir, 'public'))).toEqual(publicBefore);
    expect((await publicProfile(id)).video).toBeNull();

    // The owner can watch it; the file has no place, time or device in it.
    const file = await t.app.inject({ method: 'GET', url: pending.url, ...session });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    const converted = await probeTags(file.rawPayload);
    expect(JSON.stringify(converted)).not.toMatch(/51\.5074|2024|filmed|location/i);
    // A visitor cannot.
    expect((await t.app.inject({ method: 'GET', url: pending.url })).statusCode).toBe(401);

    const queue = await listPendingVideos(t.ctx, { page: 1 });
    const item = queue.data.find((v) => v.user_id === id)!;
    expect(item).toMatchObject({ id: pending.id, url: pending.url });
    await approveVideo(t.ctx, { mediaId: item.id, actor: { id: admin.id, role: 'admin' } });
    const profile = await publicProfile(id);
    expect(profile.video).toMatch(new RegExp(`^/media/v/${id}/[0-9a-f]{24}\\.mp4$`));
    expect(profile.poster).toMatch(/-poster-\d+\.jpg$/);
    const served = await t.app.inject({ method: 'GET', url: profile.video });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(file.rawPayload)).toBe(true);
    expect(filesUnder(path.join(mediaDir, 'private')).filter((f) => f.includes(`/${id}/`))).toEqual([]);
  });

  it('a rejected video loses its files and the owner sees why', async () => {
    const { id, session } = await advertiser();
    const admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account;
    await uploadVideo(id, session, clip);
    await runDueJobs(t.ctx, mediaJobHandlers);
    const [row] = await rowsOf(id);
    await rejectVideo(t.ctx, { mediaId: row.id, actor: { id: admin.id, role: 'admin' }, reason: 'face not shown' });
    const state = (await t.app.inject({ method: 'GET', url: `/api/edit/getGallery/${id}`, ...session })).json().data;
    expect(state.video).toMatchObject({ status: 'rejected', url: null });
    expect(filesUnder(mediaDir).filter((f) => f.includes(`/${id}/`))).toEqual([]);
    expect((await publicProfile(id)).video).toBeNull();
  });

  it('deleteVideo removes it, and only with the CSRF header', async () => {
    const { id, session } = await advertiser();
    await uploadVideo(id, session, clip);
    await runDueJobs(t.ctx, mediaJobHandlers);
    const noHeader = await t.app.inject({
      method: 'GET',
      url: `/api/edit/deleteVideo/${id}`,
      cookies: session.cookies,
    });
    expect(noHeader.statusCode).toBe(403);
    expect(await rowsOf(id)).toHaveLength(1);
    const res = await t.app.inject({ method: 'GET', url: `/api/edit/deleteVideo/${id}`, ...session });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.deleted).toBe(1);
    expect(await rowsOf(id)).toEqual([]);
    expect(filesUnder(mediaDir).filter((f) => f.includes(`/${id}/`))).toEqual([]);
  });

  it('a WebM (VP9/Opus) is transcoded to H.264 MP4', async () => {
    const { id, session } = await advertiser();
    const webm = await videoWithLocation({ codec: 'libvpx-vp9', format: 'webm', seconds: 1 });
    const res = await uploadVideo(id, session, webm, { filename: 'clip.webm', contentType: 'video/webm' });
    expect(res.statusCode, res.body).toBe(200);
    await runDueJobs(t.ctx, mediaJobHandlers);
    const file = await t.app.inject({ method: 'GET', url: `/api/edit/videoFile/${id}`, ...session });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
  });

  it('is dated and queued by the app clock: an hour behind the database, its job is due at once', async () => {
    const { id, session } = await advertiser();
    const at = hoursFromNow(-1);
    await atClock(t.ctx, at, async () => {
      expect((await uploadVideo(id, session, clip)).statusCode).toBe(200);
      const [row] = await rowsOf(id);
      expect(row.createdAt).toEqual(at);
      const [job] = await t.ctx.db
        .select()
        .from(jobs)
        .where(eq(jobs.kind, 'media.video'))
        .orderBy(desc(jobs.id))
        .limit(1);
      expect(job.runAt).toEqual(at);
      await runDueJobs(t.ctx, mediaJobHandlers);
      expect((await rowsOf(id))[0].status).toBe('pending');
    });
  });
});

describe('a conversion handed back on shutdown (issue 24, item 4)', () => {
  it('leaves the staged upload and the row to the worker that takes the job over, which converts it', async () => {
    const { id, session } = await advertiser();
    expect((await uploadVideo(id, session, clip)).statusCode).toBe(200);
    const [staged] = await rowsOf(id);
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.kind, VIDEO_JOB)).orderBy(desc(jobs.id)).limit(1);
    // The stop (SIGTERM) comes while the job runs: as soon as it has fetched the upload.
    let stopped: Promise<void> | undefined;
    const store = t.ctx.media;
    const stopsOnDownload = new Proxy(store, {
      get(target, prop) {
        if (prop === 'download')
          return async (...args: Parameters<MediaStore['download']>) => {
            const fetched = await target.download(...args);
            stopped = worker.stop();
            return fetched;
          };
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    // (The worker's first poll comes after pollMs, when `worker` is set.)
    const worker: Worker = startWorker(t.ctx, {
      handlers: { [VIDEO_JOB]: (c, payload, run) => processVideoJob({ ...c, media: stopsOnDownload }, payload, run) },
      tasks: [],
      pollMs: 50,
      log: () => undefined,
    });
    await vi.waitFor(() => expect(stopped).toBeDefined(), { timeout: 20_000 });
    await stopped;
    expect(await worker.settled(20_000)).toBe(true);

    const [back] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(back).toMatchObject({ status: 'queued', attempts: 0, lockedUntil: null });
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({ status: 'processing', storageKey: staged.storageKey });
    expect(await t.ctx.media.stat('private', staged.storageKey)).not.toBeNull();

    // Another worker (or this instance after its restart) takes it and converts it.
    expect(await runDueJobs(t.ctx, mediaJobHandlers)).toBe(1);
    const [converted] = await rowsOf(id);
    expect(converted.status).toBe('pending');
    expect(await t.ctx.media.stat('private', staged.storageKey)).toBeNull();
  }, 60_000);

  it('ffmpeg is stopped when the run is aborted', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-abort-'));
    try {
      const input = path.join(dir, 'in.mp4');
      fs.writeFileSync(input, clip);
      const probe = await probeVideo(input, 'video/mp4');
      const output = path.join(dir, 'out.mp4');
      const aborted = AbortSignal.abort();
      await expect(convertVideo(input, output, probe, () => undefined, aborted)).rejects.toMatchObject({
        name: 'AbortError',
      });
      await expect(posterFrame(input, probe.duration, aborted)).rejects.toMatchObject({ name: 'AbortError' });
      // Without a signal both run to the end.
      await convertVideo(input, output, probe, () => undefined);
      expect((await posterFrame(output, probe.duration)).length).toBeGreaterThan(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
