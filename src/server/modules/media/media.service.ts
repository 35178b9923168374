// Media of a profile (spec sections 2, 3, 5, 7; DESIGN.md "Privacy and safety of advertisers"):
// pictures go through the image pipeline while the upload waits; videos are checked at once and
// converted by a job, then wait for an admin. A refused upload writes nothing: files are written inside
// the transaction that inserts their row and deleted again if anything fails (docs/decisions/0300).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { msg } from '#shared/api/messages.ts';
import { AVATAR_CHANGE_MAX_POSITION, GALLERY_MAX } from '#shared/constants.ts';
import {
  MEDIA_LIMITS,
  type MediaItem,
  type MediaState,
  type Picture,
  type PhotoType,
  type VideoState,
} from '#shared/schemas/media.ts';
import type { AppContext } from '../../context';
import { lockAccount } from '../../db/account-lock';
import type { Tx } from '../../db/client';
import { writeAudit } from '../../db/audit';
import { enqueue, type JobHandler } from '../../lib/jobs';
import { forbidden, notFound, ValidationError } from '../../lib/errors';
import * as policy from '../../policies';
import type { Visibility } from '../../lib/media-store';
import { positionOf } from '../listings/listings.service';
import { bandNeighbours, hashBands, MediaRejected, processImage, type ProcessedImage } from './image-pipeline';
import * as repo from './media.repo';
import { keysOf, pictureOf, presentMediaItem, type PictureSource } from './media.presenter';
import { convertVideo, posterFrame, probeVideo } from './video-pipeline';

export { pictureOf, type PictureSource };
export type { ProcessedImage };

export interface Actor {
  id: number;
  role: 'advertiser' | 'admin';
}

const VIDEO_JOB = 'media.video';
const EXT = { webp: 'webp', jpeg: 'jpg' } as const;

const token = () => crypto.randomBytes(12).toString('hex');
const url = (ctx: AppContext) => (key: string) => ctx.media.publicUrl(key);
const rejected = (err: unknown): never => {
  if (err instanceof MediaRejected) throw ValidationError.field('file', err.reason);
  throw err;
};

interface StoredFile {
  key: string;
  body: Buffer;
  contentType: string;
}

/** Names of a processed picture's files under `base` (`u/12/9f...`), and the variants map of its row. */
export function imageFiles(image: ProcessedImage, base: string) {
  const files: StoredFile[] = image.variants.map((v) => ({
    key: `${base}-${v.width}.${EXT[v.format]}`,
    body: v.body,
    contentType: `image/${v.format}`,
  }));
  const variants = Object.fromEntries(image.variants.map((v, i) => [v.name, files[i].key]));
  const largestJpeg = image.variants.filter((v) => v.format === 'jpeg').at(-1)!;
  return { files, variants, storageKey: variants[largestJpeg.name] };
}

/** Row fields a processed picture fills in. */
export function imageColumns(image: ProcessedImage) {
  const [b0, b1, b2, b3] = hashBands(image.phash);
  return {
    mime: 'image/jpeg',
    width: image.width,
    height: image.height,
    bytes: image.variants.reduce((n, v) => n + v.body.length, 0),
    placeholder: image.placeholder,
    phash: image.phash,
    phashB0: b0,
    phashB1: b1,
    phashB2: b2,
    phashB3: b3,
  };
}

/** Writes files; on any failure removes those already written and rethrows. */
async function putAll(ctx: AppContext, visibility: Visibility, files: StoredFile[]) {
  const written: string[] = [];
  try {
    for (const f of files) {
      written.push(f.key);
      await ctx.media.put(visibility, f.key, f.body, f.contentType);
    }
  } catch (err) {
    await removeKeys(ctx, visibility, written);
    throw err;
  }
}

async function removeKeys(ctx: AppContext, visibility: Visibility, keys: string[]) {
  await Promise.allSettled(keys.map((k) => ctx.media.delete(visibility, k)));
}

/** A row's files, wherever they are (a video moves from private to public when approved). */
async function removeRowFiles(ctx: AppContext, rows: repo.MediaRow[]) {
  for (const row of rows) {
    const keys = keysOf(row);
    await removeKeys(ctx, 'public', keys);
    if (row.type === 'video') await removeKeys(ctx, 'private', keys);
  }
}

// ---------------------------------------------------------------- reading

async function avatarChange(ctx: AppContext, userId: number, hasAvatar: boolean) {
  const position = await positionOf(ctx.db, userId, ctx.now());
  // The first avatar is always allowed: a profile cannot be listed (or ranked) without one.
  const allowed = !hasAvatar || position === null || position <= AVATAR_CHANGE_MAX_POSITION;
  return { allowed, position, max_position: AVATAR_CHANGE_MAX_POSITION };
}

function presentVideo(ctx: AppContext, row: repo.MediaRow): VideoState {
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
    poster: approved && Object.keys(row.variants).length ? pictureOf(row, url(ctx)) : null,
    duration: row.duration,
  };
}

export async function getMediaState(ctx: AppContext, userId: number): Promise<MediaState> {
  const rows = await repo.listMedia(ctx.db, userId);
  const avatarId = await repo.avatarOf(ctx.db, userId);
  const present = (row: repo.MediaRow) => presentMediaItem(row, url(ctx));
  const avatar = rows.find((r) => r.id === avatarId) ?? null;
  const video = rows.filter((r) => r.type === 'video').at(-1) ?? null;
  const portrait = rows.find((r) => r.type === 'portrait') ?? null;
  return {
    avatar: avatar ? present(avatar) : null,
    portrait: portrait ? present(portrait) : null,
    gallery: rows.filter((r) => r.type === 'gallery').map(present),
    video: video ? presentVideo(ctx, video) : null,
    gallery_max: GALLERY_MAX,
    avatar_change: await avatarChange(ctx, userId, avatar !== null),
    limits: {
      photo_mb: MEDIA_LIMITS.photoBytes / 1024 / 1024,
      photo_megapixels: MEDIA_LIMITS.photoPixels / 1_000_000,
      video_mb: MEDIA_LIMITS.videoBytes / 1024 / 1024,
      video_seconds: MEDIA_LIMITS.videoSeconds,
    },
  };
}

// ---------------------------------------------------------------- pictures

const galleryFull = () => ValidationError.field('file', msg('media.galleryFull', { max: GALLERY_MAX }));

export async function uploadPhoto(
  ctx: AppContext,
  input: { actor: Actor; userId: number; type: PhotoType; body: Buffer; declaredType: string },
): Promise<MediaItem> {
  const { userId, type } = input;
  if (type === 'avatar' && !policy.can(input.actor, 'replaceAvatarFreely', policy.media(userId))) {
    const change = await avatarChange(ctx, userId, (await repo.avatarOf(ctx.db, userId)) !== null);
    if (!change.allowed)
      throw forbidden(msg('media.topupRequired', { position: change.position ?? 0, max: change.max_position }));
  }
  // Cheap check first; the transaction checks again under the lock.
  if (type === 'gallery' && (await repo.countGallery(ctx.db, userId)) >= GALLERY_MAX) throw galleryFull();

  const image = await processImage(input.body, input.declaredType).catch(rejected);
  const { files, variants, storageKey } = imageFiles(image, `u/${userId}/${token()}`);

  let replaced: repo.MediaRow[] = [];
  let row: repo.MediaRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      if (!(await lockAccount(tx, userId))) throw notFound();
      if (type === 'gallery' && (await repo.countGallery(tx, userId)) >= GALLERY_MAX) throw galleryFull();
      const position = type === 'gallery' ? await repo.nextGalleryPosition(tx, userId) : 0;
      await putAll(ctx, 'public', files);
      const inserted = await repo.insertMedia(tx, {
        userId,
        type,
        status: 'approved',
        position,
        storageKey,
        variants,
        ...imageColumns(image),
        createdAt: ctx.now(),
      });
      // One avatar and one portrait: the new one replaces the old.
      if (type !== 'gallery') {
        const old = (await repo.findByType(tx, userId, type)).filter((r) => r.id !== inserted.id);
        replaced = await repo.deleteMediaRows(
          tx,
          old.map((r) => r.id),
        );
      }
      if (type === 'avatar') await repo.setAvatar(tx, userId, inserted.id);
      return inserted;
    });
  } catch (err) {
    await removeKeys(
      ctx,
      'public',
      files.map((f) => f.key),
    );
    throw err;
  }
  await removeRowFiles(ctx, replaced);
  return presentMediaItem(row, url(ctx));
}

// ---------------------------------------------------------------- deleting and ordering

export async function deleteMedia(ctx: AppContext, userId: number, mediaId: number): Promise<{ deleted: number }> {
  const removed = await ctx.db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    const row = await repo.findMedia(tx, userId, mediaId);
    if (!row) throw notFound(msg('media.notFound'));
    const rows = await repo.deleteMediaRows(tx, [row.id]);
    if ((await repo.avatarOf(tx, userId)) === row.id) await repo.setAvatar(tx, userId, null);
    return rows;
  });
  await removeRowFiles(ctx, removed);
  return { deleted: removed.length };
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

/**
 * Every picture and video of the account, files and rows (the owner's "Delete all media?", the admin's
 * warn). `within` runs in the same transaction, after the rows are gone (the warn's audit line and notice).
 */
export async function deleteAllMedia(
  ctx: AppContext,
  userId: number,
  within?: (tx: Tx, removed: { deleted: number; ids: number[] }) => Promise<void>,
): Promise<{ deleted: number }> {
  const removed = await ctx.db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    await repo.setAvatar(tx, userId, null);
    const rows = await repo.deleteAllOf(tx, userId);
    await within?.(tx, { deleted: rows.length, ids: rows.map((r) => r.id) });
    return rows;
  });
  await removeRowFiles(ctx, removed);
  return { deleted: removed.length };
}

/** `ids` is the whole gallery in its new order: each photo exactly once. */
export async function updateGalleryOrder(
  ctx: AppContext,
  userId: number,
  ids: number[],
): Promise<{ gallery: number[] }> {
  return ctx.db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    const current = (await repo.findByType(tx, userId, 'gallery')).map((r) => r.id);
    const same =
      ids.length === current.length && new Set(ids).size === ids.length && ids.every((id) => current.includes(id));
    if (!same) throw ValidationError.field('gallery', msg('media.galleryOrder'));
    await repo.setGalleryPositions(tx, userId, ids);
    return { gallery: ids };
  });
}

// ---------------------------------------------------------------- videos

/**
 * Checks the video at once (ffprobe) and queues its conversion; it then waits for an admin. A new video
 * replaces the old one. `file` is a temporary file the caller removes.
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
    row = await ctx.db.transaction(async (tx) => {
      if (!(await lockAccount(tx, userId))) throw notFound();
      await ctx.media.put('private', staging, await fs.readFile(input.file), probe.mime);
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

/** The owner's (or an admin's) copy of a video that the public cannot see yet. */
export async function readVideoFile(ctx: AppContext, userId: number): Promise<{ body: Buffer; contentType: string }> {
  const row = await repo.latestVideoOf(ctx.db, userId);
  if (!row || (row.status !== 'pending' && row.status !== 'approved')) throw notFound(msg('media.notFound'));
  const body = await ctx.media.get(row.status === 'approved' ? 'public' : 'private', row.storageKey);
  if (!body) throw notFound(msg('media.notFound'));
  return { body, contentType: 'video/mp4' };
}

/** Job: converts a staged upload into the MP4 and poster that wait (privately) for an admin. */
export const processVideoJob: JobHandler = async (ctx, payload) => {
  const row = await repo.findMediaById(ctx.db, Number(payload.mediaId));
  if (!row || row.type !== 'video' || row.status !== 'processing') return;
  const staging = row.storageKey;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'video-'));
  const written: string[] = [];
  try {
    const raw = await ctx.media.get('private', staging);
    if (!raw) throw new Error('the upload is gone');
    const input = path.join(dir, 'in');
    const output = path.join(dir, 'out.mp4');
    await fs.writeFile(input, raw);
    const probe = await probeVideo(input, undefined);
    let reported = 0;
    let lastWrite = 0;
    await convertVideo(input, output, probe, (percent) => {
      const now = Date.now();
      if (percent > reported && now - lastWrite > 750) {
        reported = percent;
        lastWrite = now;
        void repo.updateMedia(ctx.db, row.id, { progress: percent }, 'processing').catch(() => undefined);
      }
    });
    const poster = await processImage(await posterFrame(output, probe.duration), undefined, { minSide: 16 });
    const base = `v/${row.userId}/${token()}`;
    const images = imageFiles(poster, `${base}-poster`);
    const mp4 = await fs.readFile(output);
    const files = [{ key: `${base}.mp4`, body: mp4, contentType: 'video/mp4' }, ...images.files];
    written.push(...files.map((f) => f.key));
    await putAll(ctx, 'private', files);
    const { mime: _poster, bytes: _posterBytes, width: _w, height: _h, ...posterColumns } = imageColumns(poster);
    const done = await repo.updateMedia(
      ctx.db,
      row.id,
      {
        status: 'pending',
        progress: 100,
        storageKey: `${base}.mp4`,
        variants: images.variants,
        mime: 'video/mp4',
        bytes: mp4.length,
        ...posterColumns,
      },
      'processing',
    );
    // Deleted or replaced while converting: nothing of it may stay.
    if (!done) await removeKeys(ctx, 'private', written);
    await removeKeys(ctx, 'private', [staging]);
  } catch (err) {
    await removeKeys(ctx, 'private', [...written, staging]);
    await repo.updateMedia(ctx.db, row.id, { status: 'failed', progress: 0 }, 'processing');
    // The row says "failed" to its owner; the job keeps the reason for whoever runs the site.
    throw err;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
};

export const mediaJobHandlers: Record<string, JobHandler> = { [VIDEO_JOB]: processVideoJob };

async function moveFiles(ctx: AppContext, keys: string[], from: Visibility, to: Visibility) {
  for (const key of keys) {
    const body = await ctx.media.get(from, key);
    if (!body) continue;
    await ctx.media.put(
      to,
      key,
      body,
      key.endsWith('.mp4') ? 'video/mp4' : key.endsWith('.webp') ? 'image/webp' : 'image/jpeg',
    );
  }
  await removeKeys(ctx, from, keys);
}

async function pendingVideo(ctx: AppContext, mediaId: number) {
  const row = await repo.findMediaById(ctx.db, mediaId);
  if (!row || row.type !== 'video') throw notFound(msg('media.notFound'));
  if (row.status !== 'pending') throw ValidationError.field('id', msg('media.videoNotPending'));
  return row;
}

/** Admin: the video becomes public (its files move to the public store). */
export async function approveVideo(ctx: AppContext, input: { mediaId: number; actor: Actor }): Promise<VideoState> {
  const row = await pendingVideo(ctx, input.mediaId);
  await moveFiles(ctx, keysOf(row), 'private', 'public');
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

// ---------------------------------------------------------------- near-duplicates

export interface SimilarImage {
  mediaId: number;
  userId: number;
  type: repo.MediaRow['type'];
  distance: number;
}

/**
 * Pictures whose perceptual hash is within `maxDistance` bits of `hash` (multi-index hashing over four
 * 16-bit bands: a match within d bits has a band within floor(d/4) bits, so only those band values are
 * looked up). Distances up to 11 are supported (at most 548 values per band).
 */
export async function findSimilarImages(ctx: AppContext, hash: bigint, maxDistance = 3): Promise<SimilarImage[]> {
  const d = Math.max(0, Math.min(11, Math.floor(maxDistance)));
  const radius = Math.floor(d / 4);
  const bands = hashBands(hash).map((b) => bandNeighbours(b, radius)) as [number[], number[], number[], number[]];
  const rows = await repo.hashCandidates(ctx.db, bands, hash, d);
  return rows.map((r) => ({ mediaId: r.id, userId: r.userId, type: r.type, distance: Number(r.distance) }));
}

// ---------------------------------------------------------------- pictures for the admin screens

/** The avatar picture of each of these accounts that has one. */
export async function avatarPictures(ctx: AppContext, userIds: number[]): Promise<Map<number, Picture>> {
  const rows = await repo.avatarsOf(ctx.db, [...new Set(userIds)]);
  return new Map(rows.map((r) => [r.userId, pictureOf(r, url(ctx))]));
}

export interface StoredPicture {
  id: number;
  userId: number;
  type: repo.MediaRow['type'];
  picture: Picture;
  createdAt: Date;
}

/** Pictures (and video posters) by media id; ids that no longer exist are left out. */
export async function picturesByIds(ctx: AppContext, ids: number[]): Promise<Map<number, StoredPicture>> {
  const rows = await repo.findManyById(ctx.db, [...new Set(ids)]);
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, userId: r.userId, type: r.type, picture: pictureOf(r, url(ctx)), createdAt: r.createdAt },
    ]),
  );
}

export async function countMediaOf(ctx: AppContext, userId: number): Promise<number> {
  return (await repo.listMedia(ctx.db, userId)).length;
}

/** Pictures with a perceptual hash and an id above `afterId`, oldest first (the duplicate scan). */
export async function hashedPicturesAfter(ctx: AppContext, afterId: number, limit: number) {
  return repo.hashedPicturesAfter(ctx.db, afterId, limit);
}
