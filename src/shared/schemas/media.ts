// Media of a profile (spec sections 2, 3 and 7): avatar, gallery (position-ordered, up to 9), profile
// portrait and one video, plus the limits the upload screens show. docs/decisions/0300.
import { z } from 'zod';
import { coercedId, id } from '../api/fields';
import { GALLERY_MAX } from '../constants';
import { messageText } from '../api/messages';
import { blankMessage } from '../api/errors';

export const PHOTO_TYPES = ['avatar', 'gallery', 'portrait'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
export const MEDIA_TYPES = [...PHOTO_TYPES, 'video'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** processing: the job is converting it; pending: waits for an admin (videos); failed: conversion failed. */
export const MEDIA_STATUSES = ['processing', 'pending', 'approved', 'rejected', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

const MB = 1024 * 1024;

/** Upload limits (the spec leaves them open: docs/decisions/0300). */
export const MEDIA_LIMITS = {
  photoBytes: 20 * MB,
  /** Decompression bombs: refused before a single pixel is decoded. */
  photoPixels: 40_000_000,
  photoMinSide: 200,
  videoBytes: 150 * MB,
  videoSeconds: 120,
  videoMinSeconds: 1,
  photoIdBytes: 20 * MB,
} as const;

/** Widths of the stored variants; a picture is never enlarged, so a small one gets fewer. */
export const VARIANT_WIDTHS = [320, 640, 1280] as const;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
export const VIDEO_ACCEPT = 'video/mp4,video/quicktime,video/webm,video/x-matroska';

export const PhotoTypeParams = z.object({ type: z.enum(PHOTO_TYPES) });
/** An admin may upload for someone else; everyone else uploads for themselves. */
export const UploadPhotoQuery = z.strictObject({ id: coercedId().optional() });

export const DeleteMediaBody = z.strictObject({
  id: id(blankMessage('Media')),
});
export type DeleteMediaBody = z.infer<typeof DeleteMediaBody>;

export const GalleryOrderBody = z.strictObject({
  gallery: z
    .array(z.number().int().positive(), { error: () => blankMessage('Gallery') })
    .max(GALLERY_MAX, messageText('validation.galleryMax', { n: GALLERY_MAX })),
});
export type GalleryOrderBody = z.infer<typeof GalleryOrderBody>;

/**
 * A stored image as an `<img>` needs it: the JPEG fallback (`src`, `srcset`), the WebP set for a
 * `<source>`, the intrinsic size (no layout shift) and a tiny blurred placeholder (data URI).
 */
export const Picture = z.object({
  src: z.string(),
  srcset: z.string(),
  webp_srcset: z.string(),
  width: z.number(),
  height: z.number(),
  placeholder: z.string().nullable(),
});
export type Picture = z.infer<typeof Picture>;

export const MediaItem = z.object({
  id: z.number(),
  type: z.enum(MEDIA_TYPES),
  status: z.enum(MEDIA_STATUSES),
  position: z.number(),
  picture: Picture.nullable(),
  created_at: z.string(),
});
export type MediaItem = z.infer<typeof MediaItem>;

export const VideoState = z.object({
  id: z.number(),
  status: z.enum(MEDIA_STATUSES),
  /** 0-100 while processing. */
  progress: z.number(),
  /** Where the owner can watch it: the public file once approved, an authorised route before. */
  url: z.string().nullable(),
  poster: Picture.nullable(),
  duration: z.number().nullable(),
});
export type VideoState = z.infer<typeof VideoState>;

/** GET /edit/getGallery/{id}: everything the media screens show. */
export const MediaState = z.object({
  avatar: MediaItem.nullable(),
  portrait: MediaItem.nullable(),
  gallery: z.array(MediaItem),
  video: VideoState.nullable(),
  gallery_max: z.number(),
  /** The avatar rule (DESIGN.md): above this position a new avatar needs a top-up first. */
  avatar_change: z.object({ allowed: z.boolean(), position: z.number().nullable(), max_position: z.number() }),
  limits: z.object({
    photo_mb: z.number(),
    photo_megapixels: z.number(),
    video_mb: z.number(),
    video_seconds: z.number(),
  }),
});
export type MediaState = z.infer<typeof MediaState>;

export const MediaStateResponse = z.object({ data: MediaState });
export const MediaItemResponse = z.object({ data: MediaItem });
export const VideoResponse = z.object({ data: VideoState });
export const DeletedResponse = z.object({ data: z.object({ deleted: z.number() }) });
export const GalleryOrderResponse = z.object({ data: z.object({ gallery: z.array(z.number()) }) });
