// The video of a profile (spec sections 2, 7): checked at once (ffprobe), staged in the private side of
// the store and converted by a job (video.job.ts) that any instance may run, then waiting for an admin,
// who approves it (its files move to the public side) or rejects it (they go).
import { msg } from '#shared/api/messages.ts';
import type { VideoState } from '#shared/schemas/media.ts';
import type { AppContext } from '../../context';
import { lockAccount } from '../../db/account-lock';
import { writeAudit } from '../../db/audit';
import { enqueue } from '../../lib/jobs';
import { notFound, ValidationError } from '../../lib/errors';
import type { Visibility } from '../../lib/media-store';
import { rejected, removeKeys, removeRowFiles, token, urlOf } from './media-files';
import * as repo from './media.repo';
import { keysOf, pictureOf } from './media.presenter';
import { probeVideo } from './video-pipeline';
import type { Actor } from './photos.service';

export const VIDEO_JOB = 'media.video';

export function presentVideo(ctx: AppContext, row: repo.MediaRow): VideoState {
  const approved = row.status === 'approved';
  return {
    id: row.id,
    status: row.status,
    progress: row.status === 'processing' ? row.progress : 100,
    url: approved
      ? ctx.media.publicUrl(row.storageKey)
      : row.status === 'pending'
        ? `/api/edit/videoFile/${row.userId}`
        : null,
    poster: approved && Object.keys(row.variants).length ? pictureOf(row, urlOf(ctx)) : null,
    duration: row.duration,
  };
}

/**
 * Checks the video at once (ffprobe) and queues its conversion; it then waits for an admin. A new video
 * replaces the old one. `file` is a temporary file the caller removes; it is streamed to the store, so
 * the instance that converts it needs nothing of this one's disk.
 */
export async function uploadVideo(
  ctx: AppContext,
  input: { userId: number; file: string; bytes: number; declaredType: string },
): Promise<VideoState> {
  const { userId } = input;
  const probe = await probeVideo(input.file, input.declaredType).catch(rejected);
  const staging = `staging/${userId}/${token()}`;
  const quarterTurn = Math.abs(probe.rotation) % 180 === 90;
  let replaced: repo.MediaRow[] = [];
  let row: repo.MediaRow;
  try {
    // Staged before the transaction: a 200 MB upload to object storage must not hold the account lock.
    await ctx.media.putFile('private', staging, input.file, probe.mime);
    row = await ctx.db.transaction(async (tx) => {
      if (!(await lockAccount(tx, userId))) throw notFound();
      const old = await repo.findByType(tx, userId, 'video');
      replaced = await repo.deleteMediaRows(
        tx,
        old.map((r) => r.id),
      );
      const inserted = await repo.insertMedia(tx, {
        userId,
        type: 'video',
        status: 'processing',
        progress: 0,
        storageKey: staging,
        variants: {},
        mime: probe.mime,
        width: quarterTurn ? probe.height : probe.width,
        height: quarterTurn ? probe.width : probe.height,
        bytes: input.bytes,
        duration: probe.duration,
        createdAt: ctx.now(),
      });
      await enqueue(tx as never, VIDEO_JOB, { mediaId: inserted.id }, ctx.now());
      return inserted;
    });
  } catch (err) {
    await removeKeys(ctx, 'private', [staging]);
    throw err;
  }
  await removeRowFiles(ctx, replaced);
  return presentVideo(ctx, row);
}

export async function videoState(ctx: AppContext, userId: number): Promise<VideoState> {
  const row = await repo.latestVideoOf(ctx.db, userId);
  if (!row) throw notFound(msg('media.notFound'));
  return presentVideo(ctx, row);
}

/** Where the owner's (or an admin's) copy of a video the public cannot see yet is stored. */
export async function videoFile(ctx: AppContext, userId: number): Promise<{ visibility: Visibility; key: string }> {
  const row = await repo.latestVideoOf(ctx.db, userId);
  if (!row || (row.status !== 'pending' && row.status !== 'approved')) throw notFound(msg('media.notFound'));
  return { visibility: row.status === 'approved' ? 'public' : 'private', key: row.storageKey };
}

export async function deleteVideo(ctx: AppContext, userId: number): Promise<{ deleted: number }> {
  const removed = await ctx.db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    const videos = await repo.findByType(tx, userId, 'video');
    return repo.deleteMediaRows(
      tx,
      videos.map((v) => v.id),
    );
  });
  await removeRowFiles(ctx, removed);
  return { deleted: removed.length };
}

async function pendingVideo(ctx: AppContext, mediaId: number) {
  const row = await repo.findMediaById(ctx.db, mediaId);
  if (!row || row.type !== 'video') throw notFound(msg('media.notFound'));
  if (row.status !== 'pending') throw ValidationError.field('id', msg('media.videoNotPending'));
  return row;
}

/** Admin: the video becomes public (its files move to the public side of the store). */
export async function approveVideo(ctx: AppContext, input: { mediaId: number; actor: Actor }): Promise<VideoState> {
  const row = await pendingVideo(ctx, input.mediaId);
  for (const key of keysOf(row)) await ctx.media.move(key, 'private', 'public');
  const updated = await ctx.db.transaction(async (tx) => {
    const done = await repo.updateMedia(tx, row.id, { status: 'approved' }, 'pending');
    if (!done) throw notFound(msg('media.notFound'));
    await writeAudit(tx, {
      actorId: input.actor.id,
      action: 'video.approve',
      targetUserId: row.userId,
      data: { mediaId: row.id },
      before: { status: 'pending' },
      after: { status: 'approved' },
      at: ctx.now(),
    });
    return done;
  });
  return presentVideo(ctx, updated);
}

/** Admin: the video is refused; its files are deleted, the row stays so the owner sees why. */
export async function rejectVideo(
  ctx: AppContext,
  input: { mediaId: number; actor: Actor; reason?: string },
): Promise<VideoState> {
  const row = await pendingVideo(ctx, input.mediaId);
  const updated = await ctx.db.transaction(async (tx) => {
    const done = await repo.updateMedia(tx, row.id, { status: 'rejected' }, 'pending');
    if (!done) throw notFound(msg('media.notFound'));
    await writeAudit(tx, {
      actorId: input.actor.id,
      action: 'video.reject',
      targetUserId: row.userId,
      data: { mediaId: row.id, reason: input.reason ?? null },
      before: { status: 'pending' },
      after: { status: 'rejected' },
      at: ctx.now(),
    });
    return done;
  });
  await removeKeys(ctx, 'private', keysOf(row));
  return presentVideo(ctx, updated);
}

export interface PendingVideo {
  id: number;
  user_id: number;
  screen_name: string | null;
  username: string;
  duration: number | null;
  created_at: string;
  /** Authorised route that streams the private file to an admin. */
  url: string;
}

/** Admin queue, oldest first. */
export async function listPendingVideos(
  ctx: AppContext,
  input: { page: number; pageSize?: number },
): Promise<{ data: PendingVideo[]; total: number; page: number; has_more: boolean }> {
  const size = input.pageSize ?? 20;
  const [rows, total] = await Promise.all([
    repo.pendingVideos(ctx.db, size, (input.page - 1) * size),
    repo.countPendingVideos(ctx.db),
  ]);
  return {
    data: rows.map(({ row, screenName, username }) => ({
      id: row.id,
      user_id: row.userId,
      screen_name: screenName,
      username,
      duration: row.duration,
      created_at: row.createdAt.toISOString(),
      url: `/api/edit/videoFile/${row.userId}`,
    })),
    total,
    page: input.page,
    has_more: input.page * size < total,
  };
}
