// The store side of media rows: the file names a processed picture gets, writing them all or none, and
// removing a row's files wherever they are. Shared by the photo and video services.
import crypto from 'node:crypto';
import type { AppContext } from '../../context';
import type { Visibility } from '../../lib/media-store';
import { hashBands, MediaRejected, type ProcessedImage } from './image-pipeline';
import type { MediaRow } from './media.repo';
import { PICTURE_HASH_VERSION } from './picture-hash';
import { keysOf } from './media.presenter';
import { ValidationError } from '../../lib/errors';

const EXT = { webp: 'webp', jpeg: 'jpg' } as const;

export const token = () => crypto.randomBytes(12).toString('hex');
export const urlOf = (ctx: AppContext) => (key: string) => ctx.media.publicUrl(key);
export const rejected = (err: unknown): never => {
  if (err instanceof MediaRejected) throw ValidationError.field('file', err.reason);
  throw err;
};

export interface StoredFile {
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
    phashMirror: image.phashMirror,
    phashVersion: PICTURE_HASH_VERSION,
    phashB0: b0,
    phashB1: b1,
    phashB2: b2,
    phashB3: b3,
  };
}

/** Writes files; on any failure removes those already written and rethrows. */
export async function putAll(ctx: AppContext, visibility: Visibility, files: StoredFile[]) {
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

export async function removeKeys(ctx: AppContext, visibility: Visibility, keys: string[]) {
  await Promise.allSettled(keys.map((k) => ctx.media.delete(visibility, k)));
}

/** A row's files, wherever they are (a video moves from private to public when approved). */
export async function removeRowFiles(ctx: AppContext, rows: MediaRow[]) {
  for (const row of rows) {
    const keys = keysOf(row);
    await removeKeys(ctx, 'public', keys);
    if (row.type === 'video') await removeKeys(ctx, 'private', keys);
  }
}
