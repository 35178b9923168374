// What goes out of a media row: a Picture (srcset of JPEG and WebP variants, intrinsic size,
// placeholder) for pictures and posters, never the row itself.
import type { MediaItem, Picture } from '#shared/schemas/media.ts';
import type { MediaRow } from './media.repo';

export interface PictureSource {
  storageKey: string;
  variants: Record<string, string>;
  width: number | null;
  height: number | null;
  placeholder: string | null;
}

interface Variant {
  format: 'webp' | 'jpeg';
  width: number;
  key: string;
}

const VARIANT = /^(webp|jpeg)-(\d+)$/;

function parseVariants(variants: Record<string, string>): Variant[] {
  const out: Variant[] = [];
  for (const [name, key] of Object.entries(variants)) {
    const m = VARIANT.exec(name);
    if (m) out.push({ format: m[1] as Variant['format'], width: Number(m[2]), key });
  }
  return out.sort((a, b) => a.width - b.width);
}

/** The JPEG a browser without srcset loads: the one nearest 640 pixels wide. */
const FALLBACK_WIDTH = 640;

export function pictureOf(source: PictureSource, url: (key: string) => string): Picture {
  const all = parseVariants(source.variants);
  const jpeg = all.filter((v) => v.format === 'jpeg');
  const webp = all.filter((v) => v.format === 'webp');
  const set = (list: Variant[]) => list.map((v) => `${url(v.key)} ${v.width}w`).join(', ');
  const fallback = jpeg.reduce<Variant | null>(
    (best, v) => (!best || Math.abs(v.width - FALLBACK_WIDTH) < Math.abs(best.width - FALLBACK_WIDTH) ? v : best),
    null,
  );
  return {
    src: url(fallback?.key ?? source.storageKey),
    srcset: set(jpeg),
    webp_srcset: set(webp),
    // The row keeps the size of the largest variant: the intrinsic size the browser reserves.
    width: source.width ?? 480,
    height: source.height ?? 640,
    placeholder: source.placeholder,
  };
}

export function presentMediaItem(row: MediaRow, url: (key: string) => string): MediaItem {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    position: row.position,
    picture: row.type === 'video' ? null : pictureOf(row, url),
    created_at: row.createdAt.toISOString(),
  };
}

/** Every key a row names in the store (the file, its variants). */
export function keysOf(row: Pick<MediaRow, 'storageKey' | 'variants'>): string[] {
  return [...new Set([row.storageKey, ...Object.values(row.variants ?? {})])];
}
