// The conversion job: whichever instance takes it fetches the staged upload from the store into a
// temporary directory of its own, converts it there (ffmpeg), and streams the MP4 and poster back to the
// private side of the store, where they wait for an admin. Before it, it removes the temporary
// directories of conversions whose process is gone (openConversionDir).
// A run that is handed back (shutdown) or loses its lease stops at once (ffmpeg killed) and removes
// only what it wrote itself: the staged upload and the row's state belong to the worker that takes the
// job over (docs/decisions/0005).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { JobHandler } from '../../lib/jobs';
import { processImage } from './image-pipeline';
import { imageColumns, imageFiles, putAll, removeKeys, token } from './media-files';
import * as repo from './media.repo';
import { convertVideo, openConversionDir, posterFrame, probeVideo } from './video-pipeline';
import { VIDEO_JOB } from './video.service';

/** Job: converts a staged upload into the MP4 and poster that wait (privately) for an admin. */
export const processVideoJob: JobHandler = async (ctx, payload, run) => {
  const { signal } = run;
  const row = await repo.findMediaById(ctx.db, Number(payload.mediaId));
  if (!row || row.type !== 'video' || row.status !== 'processing') return;
  const staging = row.storageKey;
  const work = await openConversionDir();
  const dir = work.path;
  const written: string[] = [];
  try {
    const input = path.join(dir, 'in');
    const output = path.join(dir, 'out.mp4');
    if (!(await ctx.media.download('private', staging, input))) throw new Error('the upload is gone');
    signal.throwIfAborted();
    const probe = await probeVideo(input, undefined);
    let reported = 0;
    let lastWrite = 0;
    await convertVideo(
      input,
      output,
      probe,
      (percent) => {
        const now = Date.now();
        if (percent > reported && now - lastWrite > 750) {
          reported = percent;
          lastWrite = now;
          void repo.updateMedia(ctx.db, row.id, { progress: percent }, 'processing').catch(() => undefined);
        }
      },
      signal,
    );
    const poster = await processImage(await posterFrame(output, probe.duration, signal), undefined, { minSide: 16 });
    const base = `v/${row.userId}/${token()}`;
    const images = imageFiles(poster, `${base}-poster`);
    const mp4 = `${base}.mp4`;
    written.push(mp4, ...images.files.map((f) => f.key));
    await ctx.media.putFile('private', mp4, output, 'video/mp4');
    await putAll(ctx, 'private', images.files);
    signal.throwIfAborted();
    const { mime: _poster, bytes: _posterBytes, width: _w, height: _h, ...posterColumns } = imageColumns(poster);
    const done = await repo.updateMedia(
      ctx.db,
      row.id,
      {
        status: 'pending',
        progress: 100,
        storageKey: mp4,
        variants: images.variants,
        mime: 'video/mp4',
        bytes: (await fs.stat(output)).size,
        ...posterColumns,
      },
      'processing',
    );
    // Deleted or replaced while converting: nothing of it may stay.
    if (!done) await removeKeys(ctx, 'private', written);
    // From here the files are the row's (or gone): no failure below may remove them.
    written.length = 0;
    await removeKeys(ctx, 'private', [staging]);
  } catch (err) {
    if (signal.aborted) {
      // Not ours any more: leave the upload and the row to the worker that takes the job over.
      await removeKeys(ctx, 'private', written);
      throw err;
    }
    await removeKeys(ctx, 'private', [...written, staging]);
    await repo.updateMedia(ctx.db, row.id, { status: 'failed', progress: 0 }, 'processing');
    // The row says "failed" to its owner; the job keeps the reason for whoever runs the site.
    throw err;
  } finally {
    await work.close();
  }
};

export const mediaJobHandlers: Record<string, JobHandler> = { [VIDEO_JOB]: processVideoJob };
