// Media of a profile as a whole (spec sections 2, 3, 5, 7; DESIGN.md "Privacy and safety of
// advertisers"): the editor's state, deleting everything, and the pictures the admin screens and the
// duplicate scan read. Pictures are photos.service.ts, the video video.service.ts and its conversion
// video.job.ts: the module's routes call them directly, other modules through the re-exports here.
import { GALLERY_MAX } from '#shared/constants.ts';
import { MEDIA_LIMITS, type MediaState, type Picture } from '#shared/schemas/media.ts';
import type { AppContext } from '../../context';
import { lockAccount } from '../../db/account-lock';
import type { Tx } from '../../db/client';
import type { ProcessedImage } from './image-pipeline';
import { bandNeighbours, hashBands } from './image-pipeline';
import { removeRowFiles, urlOf } from './media-files';
import { hashEncodedPicture, PICTURE_HASH_VERSION } from './picture-hash';
import * as repo from './media.repo';
import { pictureOf, presentMediaItem, type PictureSource } from './media.presenter';
import { avatarChange } from './photos.service';
import { presentVideo } from './video.service';

export { pictureOf, type PictureSource };
export type { ProcessedImage };
export { type Actor, deleteMedia, PICTURE_STORED_JOB, updateGalleryOrder, uploadPhoto } from './photos.service';
export {
  approveVideo,
  deleteVideo,
  listPendingVideos,
  rejectVideo,
  uploadVideo,
  videoFile,
  videoState,
  type PendingVideo,
} from './video.service';
export { mediaJobHandlers, processVideoJob } from './video.job';

export async function getMediaState(ctx: AppContext, userId: number): Promise<MediaState> {
  const rows = await repo.listMedia(ctx.db, userId);
  const avatarId = await repo.avatarOf(ctx.db, userId);
  const present = (row: repo.MediaRow) => presentMediaItem(row, urlOf(ctx));
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

// ---------------------------------------------------------------- near-duplicates

export interface SimilarImage {
  mediaId: number;
  userId: number;
  type: repo.MediaRow['type'];
  distance: number;
}

/**
 * Pictures whose perceptual hash (of the current version) is within `maxDistance` bits of `hash`, or of
 * `mirror` (a flipped copy of a stored picture), nearest first. Multi-index hashing over four 16-bit
 * bands: a match within d bits has a band within floor(d/4) bits, so only those band values are looked
 * up (4 x 137 values at 8 bits). Distances up to 11 are supported (at most 548 values per band).
 */
export async function findSimilarImages(
  ctx: AppContext,
  hashes: { hash: bigint; mirror?: bigint | null },
  maxDistance = 3,
): Promise<SimilarImage[]> {
  const d = Math.max(0, Math.min(11, Math.floor(maxDistance)));
  const radius = Math.floor(d / 4);
  const lookup = (hash: bigint) =>
    repo.hashCandidates(
      ctx.db,
      hashBands(hash).map((b) => bandNeighbours(b, radius)) as [number[], number[], number[], number[]],
      hash,
      d,
      PICTURE_HASH_VERSION,
    );
  const found = new Map<number, SimilarImage>();
  for (const hash of hashes.mirror == null ? [hashes.hash] : [hashes.hash, hashes.mirror])
    for (const r of await lookup(hash)) {
      const distance = Number(r.distance);
      const seen = found.get(r.id);
      if (!seen || distance < seen.distance)
        found.set(r.id, { mediaId: r.id, userId: r.userId, type: r.type, distance });
    }
  return [...found.values()].sort((a, b) => a.distance - b.distance || a.mediaId - b.mediaId);
}

// ---------------------------------------------------------------- pictures for the admin screens

/** The avatar picture of each of these accounts that has one. */
export async function avatarPictures(ctx: AppContext, userIds: number[]): Promise<Map<number, Picture>> {
  const rows = await repo.avatarsOf(ctx.db, [...new Set(userIds)]);
  return new Map(rows.map((r) => [r.userId, pictureOf(r, urlOf(ctx))]));
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
      { id: r.id, userId: r.userId, type: r.type, picture: pictureOf(r, urlOf(ctx)), createdAt: r.createdAt },
    ]),
  );
}

export async function countMediaOf(ctx: AppContext, userId: number): Promise<number> {
  return (await repo.listMedia(ctx.db, userId)).length;
}

/** Pictures with a current perceptual hash and an id above `afterId`, oldest first (the duplicate scan). */
export async function hashedPicturesAfter(ctx: AppContext, afterId: number, limit: number) {
  return repo.hashedPicturesAfter(ctx.db, afterId, limit, PICTURE_HASH_VERSION);
}

/** One picture's current hashes (null for a video, a deleted row or one not re-hashed yet). */
export async function hashedPicture(ctx: AppContext, mediaId: number) {
  return repo.hashedPicture(ctx.db, mediaId, PICTURE_HASH_VERSION);
}

/**
 * Re-hashes up to `limit` pictures stored under an older hash version, from their largest stored JPEG
 * (docs/decisions/0507). Returns the ids now hashed with the current version; a picture whose file is
 * gone or unreadable loses its hash (it can no longer be compared, and the task does not come back to it).
 */
export async function rehashOlderPictures(ctx: AppContext, limit: number): Promise<number[]> {
  const rows = await repo.picturesOfOlderHash(ctx.db, PICTURE_HASH_VERSION, limit);
  const done: number[] = [];
  for (const row of rows) {
    const body = await ctx.media.get('public', row.storageKey);
    const hashes = body ? await hashEncodedPicture(body).catch(() => null) : null;
    const [b0, b1, b2, b3] = hashes ? hashBands(hashes.hash) : [null, null, null, null];
    const changed = await repo.setHashes(ctx.db, row.id, row.version, {
      phash: hashes?.hash ?? null,
      phashMirror: hashes?.mirror ?? null,
      phashVersion: PICTURE_HASH_VERSION,
      phashB0: b0,
      phashB1: b1,
      phashB2: b2,
      phashB3: b3,
    });
    if (changed && hashes) done.push(row.id);
  }
  return done;
}
