// Test files made on the spot (nothing binary is committed): pictures with GPS EXIF, bombs, truncated
// JPEGs, short videos with a location tag, and the multipart body a browser would send.
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const exec = promisify(execFile);

/** A picture with some structure (so perceptual hashes differ between seeds). */
export async function picture(o: { width?: number; height?: number; seed?: number } = {}) {
  const width = o.width ?? 800;
  const height = o.height ?? 600;
  const seed = o.seed ?? 1;
  const shapes = Array.from({ length: 6 }, (_, i) => {
    const x = ((seed * 97 + i * 131) % 100) / 100;
    const y = ((seed * 57 + i * 71) % 100) / 100;
    return `<circle cx="${Math.round(x * width)}" cy="${Math.round(y * height)}" r="${Math.round(((i + 1) * Math.min(width, height)) / 14)}" fill="hsl(${(seed * 47 + i * 60) % 360},70%,50%)"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="hsl(${(seed * 29) % 360},40%,80%)"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg));
}

/** A camera JPEG: EXIF with the camera, the time and a GPS position (London), and an orientation. */
export async function jpegWithGps(o: { width?: number; height?: number; seed?: number; orientation?: number } = {}) {
  const image = await picture(o);
  return image
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: {
        Make: 'PhoneMaker',
        Model: 'Model X',
        Software: 'Camera 1.0',
        ...(o.orientation ? { Orientation: String(o.orientation) } : {}),
      },
      IFD2: { DateTimeOriginal: '2024:05:01 21:13:00' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2634/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3954/100',
      },
    })
    .toBuffer();
}

export async function png(o: { width?: number; height?: number; seed?: number } = {}) {
  return (await picture(o)).png().toBuffer();
}

/** 50 megapixels of one colour: a few hundred kB compressed, 150 MB once decoded. */
export async function bombPng() {
  return sharp({ create: { width: 8000, height: 6250, channels: 3, background: '#777777' } })
    .png()
    .toBuffer();
}

export async function truncatedJpeg() {
  const whole = await jpegWithGps({ width: 1200, height: 900 });
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

/** A short H.264/AAC MP4 whose container says where and when it was filmed. */
export async function videoWithLocation(
  o: { seconds?: number; codec?: 'libx264' | 'libvpx-vp9'; format?: 'mp4' | 'webm' } = {},
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-video-'));
  const format = o.format ?? 'mp4';
  const file = path.join(dir, `clip.${format}`);
  const seconds = String(o.seconds ?? 2);
  await exec('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=320x240:rate=15:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-c:v',
    o.codec ?? 'libx264',
    '-pix_fmt',
    'yuv420p',
    ...(format === 'mp4' ? ['-c:a', 'aac', '-movflags', '+use_metadata_tags'] : ['-c:a', 'libopus']),
    '-metadata',
    'location=+51.5074-000.1278/',
    '-metadata',
    'com.apple.quicktime.location.ISO6709=+51.5074-000.1278/',
    '-metadata',
    'creation_time=2024-05-01T21:13:00Z',
    '-metadata',
    'comment=filmed at home',
    '-shortest',
    file,
  ]);
  const body = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return body;
}

/** ffprobe's view of a file: global tags and each stream's tags. */
export async function probeTags(
  body: Buffer,
): Promise<{ format: Record<string, string>; streams: Array<Record<string, string>> }> {
  const file = path.join(os.tmpdir(), `probe-${crypto.randomBytes(6).toString('hex')}`);
  fs.writeFileSync(file, body);
  try {
    const { stdout } = await exec('ffprobe', [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      file,
    ]);
    const info = JSON.parse(stdout) as {
      format: { tags?: Record<string, string> };
      streams: Array<{ tags?: Record<string, string> }>;
    };
    return { format: info.format.tags ?? {}, streams: info.streams.map((s) => s.tags ?? {}) };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** What a browser sends for `<input type=file name=field>`. */
export function multipart(body: Buffer, o: { filename?: string; contentType?: string; field?: string } = {}) {
  const boundary = `----form${crypto.randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${o.field ?? 'file'}"; filename="${o.filename ?? 'photo.jpg'}"\r\n` +
    `Content-Type: ${o.contentType ?? 'image/jpeg'}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), body, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Every file under a directory (relative paths), to prove a refused call wrote nothing. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
}
