// Pictures of a profile (spec sections 2, 5, 7): an upload goes through the image pipeline while the
// request waits, and its variants are written to the store inside the transaction that inserts the row,
// removed again if anything fails (docs/decisions/0300): a refused upload leaves nothing behind.
import { msg } from '#shared/api/messages.ts';
import { AVATAR_CHANGE_MAX_POSITION, GALLERY_MAX } from '#shared/constants.ts';
import type { MediaItem, PhotoType } from '#shared/schemas/media.ts';
import type { AppContext } from '../../context';
import { lockAccount } from '../../db/account-lock';
import { forbidden, notFound, ValidationError } from '../../lib/errors';
import { enqueue } from '../../lib/jobs';
import * as policy from '../../policies';
import { positionOf } from '../listings/listings.service';
import { processImage } from './image-pipeline';
import { imageColumns, imageFiles, putAll, rejected, removeKeys, removeRowFiles, token, urlOf } from './media-files';
import * as repo from './media.repo';
import { presentMediaItem } from './media.presenter';

export interface Actor {
  id: number;
  role: 'advertiser' | 'admin';
}

export async function avatarChange(ctx: AppContext, userId: number, hasAvatar: boolean) {
  const position = await positionOf(ctx.db, userId, ctx.now());
  // The first avatar is always allowed: a profile cannot be listed (or ranked) without one.
  const allowed = !hasAvatar || position === null || position <= AVATAR_CHANGE_MAX_POSITION;
  return { allowed, position, max_position: AVATAR_CHANGE_MAX_POSITION };
}

/**
 * Queued with every stored picture, in the transaction that stores it: the admin module's handler looks
 * the picture up among the other accounts' pictures within seconds (docs/decisions/0507).
 */
export const PICTURE_STORED_JOB = 'media.picture-stored';

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
      await enqueue(tx, PICTURE_STORED_JOB, { mediaId: inserted.id }, ctx.now());
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
  return presentMediaItem(row, urlOf(ctx));
}

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
