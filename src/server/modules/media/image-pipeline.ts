// Turns an uploaded picture into what we store and serve: the type sniffed from the bytes, refused when
// it is not a picture, disagrees with the declared type, is too big in pixels (decompression bombs) or
// cannot be decoded; then auto-rotated, flattened to sRGB and re-encoded by sharp at several widths as
// WebP and JPEG with no metadata at all, plus a tiny placeholder and a perceptual hash.
// Nothing here touches the database or the store: a refusal leaves no trace.
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { msg, type Message } from '#shared/api/messages.ts';
import { IMAGE_TYPES, MEDIA_LIMITS, VARIANT_WIDTHS } from '#shared/schemas/media.ts';
import { pictureHashes } from './picture-hash';

/** A picture we will not take, and why (a field message for the 422). */
export class MediaRejected extends Error {
  constructor(readonly reason: Message) {
    super(reason.key);
    this.name = 'MediaRejected';
  }
}

const FORMAT_NAMES: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/avif': 'AVIF',
  'image/gif': 'GIF',
  'image/heic': 'HEIC',
  'image/bmp': 'BMP',
  'image/tiff': 'TIFF',
};
const ALIASES: Record<string, string> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

/** Declared types that say nothing about the content (curl, some apps): the bytes alone decide. */
const UNINFORMATIVE = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export const describeType = (mime: string) => FORMAT_NAMES[mime] ?? mime;

/**
 * The picture's real type from its bytes. A declared Content-Type that names another type is refused
 * (docs/decisions/0301): a PNG sent as image/jpeg is a client that lies or is confused, and either way
 * we do not guess.
 */
export async function sniffImage(body: Buffer, declared: string | undefined): Promise<string> {
  const found = await fileTypeFromBuffer(body);
  const mime = found?.mime ?? '';
  if (!(IMAGE_TYPES as readonly string[]).includes(mime)) {
    throw new MediaRejected(msg('media.notAnImage', { type: found ? describeType(mime) : 'unknown' }));
  }
  const said = (declared ?? '').split(';')[0].trim().toLowerCase();
  const normalised = ALIASES[said] ?? said;
  if (!UNINFORMATIVE.has(normalised) && normalised !== mime) {
    throw new MediaRejected(msg('media.typeMismatch', { declared: said, actual: describeType(mime) }));
  }
  return mime;
}

export interface ImageVariant {
  /** `webp-640`, `jpeg-320`... */
  name: string;
  format: 'webp' | 'jpeg';
  width: number;
  height: number;
  body: Buffer;
}

export interface ProcessedImage {
  mime: string;
  width: number;
  height: number;
  variants: ImageVariant[];
  /** data:image/webp;base64,... of a 16-pixel-wide version. */
  placeholder: string;
  /** Perceptual hash (picture-hash.ts), as a signed 64-bit integer (the database's bigint). */
  phash: bigint;
  /** The same hash of the picture mirrored left to right: how a flipped copy of a stored one is found. */
  phashMirror: bigint;
}

export const variantName = (format: 'webp' | 'jpeg', width: number) => `${format}-${width}`;

/** Widths to make for a picture `width` pixels wide: never wider than the source. */
export function targetWidths(width: number, widths: readonly number[] = VARIANT_WIDTHS): number[] {
  const below = widths.filter((w) => w < width);
  const top = Math.min(width, widths[widths.length - 1]);
  return [...new Set([...below, top])];
}

/** Height of a variant `w` wide, the same rounding everywhere (presenters compute it too). */
export const scaledHeight = (width: number, height: number, w: number) => Math.max(1, Math.round((height * w) / width));

export interface ProcessOptions {
  maxPixels?: number;
  minSide?: number;
  widths?: readonly number[];
}

// Truncated or corrupt data fails; harmless decoder warnings (common in phone JPEGs) do not.
const decodeOptions = (maxPixels: number) => ({ limitInputPixels: maxPixels, failOn: 'truncated' as const });

export async function processImage(body: Buffer, declared: string | undefined, opts: ProcessOptions = {}) {
  const maxPixels = opts.maxPixels ?? MEDIA_LIMITS.photoPixels;
  const minSide = opts.minSide ?? MEDIA_LIMITS.photoMinSide;
  const mime = await sniffImage(body, declared);

  // The header alone: a 50-megapixel bomb is refused before anything is decoded.
  let meta: Metadata;
  try {
    meta = await sharp(body, { limitInputPixels: false }).metadata();
  } catch {
    throw new MediaRejected(msg('media.unreadable'));
  }
  if (!meta.width || !meta.height) throw new MediaRejected(msg('media.unreadable'));
  if (meta.width * meta.height > maxPixels) {
    throw new MediaRejected(msg('media.tooManyPixels', { max: Math.floor(maxPixels / 1_000_000) }));
  }
  if (Math.min(meta.width, meta.height) < minSide) {
    throw new MediaRejected(msg('media.tooSmall', { min: minSide }));
  }

  const widths = opts.widths ?? VARIANT_WIDTHS;
  let base: { data: Buffer; info: OutputInfo };
  try {
    // One decode: rotated by its EXIF orientation, flattened onto white (the JPEG fallback has no
    // alpha), converted to sRGB, scaled to the largest width we keep. Everything else derives from it.
    base = await sharp(body, decodeOptions(maxPixels))
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize({ width: widths[widths.length - 1], withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new MediaRejected(msg('media.unreadable'));
  }
  const { width, height, channels } = base.info;
  const raw = () => sharp(base.data, { raw: { width, height, channels } });

  const variants: ImageVariant[] = [];
  for (const w of targetWidths(width, widths)) {
    const h = scaledHeight(width, height, w);
    const scaled = w === width ? raw() : raw().resize(w, h, { fit: 'fill' });
    // sharp writes no metadata unless asked (withMetadata/keepExif/keepIccProfile): nothing is kept.
    const [webp, jpeg] = await Promise.all([
      scaled.clone().webp({ quality: 78, effort: 4 }).toBuffer(),
      scaled.clone().jpeg({ quality: 80, mozjpeg: true }).toBuffer(),
    ]);
    variants.push({ name: variantName('webp', w), format: 'webp', width: w, height: h, body: webp });
    variants.push({ name: variantName('jpeg', w), format: 'jpeg', width: w, height: h, body: jpeg });
  }

  const tiny = await raw()
    .resize(16, scaledHeight(width, height, 16), { fit: 'fill' })
    .webp({ quality: 40 })
    .toBuffer();
  const hashes = await pictureHashes(raw());
  return {
    mime,
    width,
    height,
    variants,
    placeholder: `data:image/webp;base64,${tiny.toString('base64')}`,
    phash: hashes.hash,
    phashMirror: hashes.mirror,
  } satisfies ProcessedImage;
}

/** The four 16-bit bands of a hash, high to low (multi-index hashing). */
export function hashBands(hash: bigint): [number, number, number, number] {
  const u = BigInt.asUintN(64, hash);
  return [
    Number((u >> 48n) & 0xffffn),
    Number((u >> 32n) & 0xffffn),
    Number((u >> 16n) & 0xffffn),
    Number(u & 0xffffn),
  ];
}

/** Every 16-bit value within `radius` bit flips of `band` (the band itself first). */
export function bandNeighbours(band: number, radius: number): number[] {
  let frontier = [band];
  const seen = new Set(frontier);
  for (let r = 0; r < radius; r++) {
    const next: number[] = [];
    for (const value of frontier)
      for (let bit = 0; bit < 16; bit++) {
        const flipped = value ^ (1 << bit);
        if (!seen.has(flipped)) {
          seen.add(flipped);
          next.push(flipped);
        }
      }
    frontier = next;
  }
  return [...seen];
}

export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let n = 0;
  while (x) {
    x &= x - 1n;
    n++;
  }
  return n;
}
