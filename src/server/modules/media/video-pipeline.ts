// Videos through ffprobe and ffmpeg (Debian's binaries, spawned directly: no wrapper library is
// maintained any more). probeVideo refuses what is not a video we take; convertVideo writes an MP4
// (H.264/AAC, faststart) with every piece of metadata dropped, re-muxing when the streams already
// suit a browser and transcoding otherwise; posterFrame grabs a still for the image pipeline.
// openConversionDir gives a conversion its temporary directory, named after its process, and removes
// those of processes that are gone (killed in the middle of a conversion).
import { spawn } from 'node:child_process';
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import { msg } from '#shared/api/messages.ts';
import { MEDIA_LIMITS } from '#shared/schemas/media.ts';
import { MediaRejected } from './image-pipeline';

const CONTAINERS = new Set(['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska', 'video/x-m4v']);
const CODECS = new Set(['h264', 'hevc', 'vp8', 'vp9', 'av1', 'mpeg4']);
/** Largest side of what we serve; bigger videos are scaled down. */
const MAX_SIDE = 1280;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `signal`: aborting it kills the child (a job handed back on shutdown must not leave ffmpeg running). */
function run(cmd: string, args: string[], onStdout?: (chunk: string) => void, signal?: AbortSignal): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      const s = c.toString();
      if (onStdout) onStdout(s);
      else stdout += s;
    });
    child.stderr.on('data', (c: Buffer) => {
      // Keep the tail only: ffmpeg can be chatty.
      stderr = (stderr + c.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface VideoProbe {
  mime: string;
  duration: number;
  width: number;
  height: number;
  codec: string;
  pixFmt: string | null;
  audioCodec: string | null;
  /** Display rotation in degrees (phones record sideways and say so). */
  rotation: number;
}

interface FfprobeJson {
  format?: { duration?: string; format_name?: string };
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    pix_fmt?: string;
    duration?: string;
    tags?: Record<string, string>;
    side_data_list?: Array<{ rotation?: number }>;
  }>;
}

/** Refuses (MediaRejected) whatever is not a video we take; never touches the store. */
export async function probeVideo(file: string, declared: string | undefined): Promise<VideoProbe> {
  const sniffed = await fileTypeFromFile(file).catch(() => undefined);
  const mime = sniffed?.mime ?? '';
  if (!CONTAINERS.has(mime)) throw new MediaRejected(msg('media.notAVideo'));
  // Browsers name a container by the file's extension, and .mov/.mp4/.m4v share one format family:
  // only a declared type that is not a video at all is a contradiction (docs/decisions/0301).
  const said = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (said && !said.startsWith('video/') && said !== 'application/octet-stream') {
    throw new MediaRejected(msg('media.typeMismatch', { declared: said, actual: 'video' }));
  }
  const res = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  if (res.code !== 0) throw new MediaRejected(msg('media.notAVideo'));
  let info: FfprobeJson;
  try {
    info = JSON.parse(res.stdout) as FfprobeJson;
  } catch {
    throw new MediaRejected(msg('media.notAVideo'));
  }
  const video = info.streams?.find((s) => s.codec_type === 'video');
  const audio = info.streams?.find((s) => s.codec_type === 'audio');
  if (!video?.codec_name || !video.width || !video.height) throw new MediaRejected(msg('media.notAVideo'));
  if (!CODECS.has(video.codec_name)) throw new MediaRejected(msg('media.videoCodec', { codec: video.codec_name }));
  const duration = Number(info.format?.duration ?? video.duration ?? NaN);
  if (!Number.isFinite(duration) || duration <= 0) throw new MediaRejected(msg('media.notAVideo'));
  if (duration > MEDIA_LIMITS.videoSeconds)
    throw new MediaRejected(msg('media.videoTooLong', { max: MEDIA_LIMITS.videoSeconds }));
  if (duration < MEDIA_LIMITS.videoMinSeconds)
    throw new MediaRejected(msg('media.videoTooShort', { min: MEDIA_LIMITS.videoMinSeconds }));
  const rotation = Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0);
  return {
    mime,
    duration,
    width: video.width,
    height: video.height,
    codec: video.codec_name,
    pixFmt: video.pix_fmt ?? null,
    audioCodec: audio?.codec_name ?? null,
    rotation,
  };
}

/** Streams a browser plays as they are, in a size we serve: copy them instead of re-encoding. */
export function canRemux(p: VideoProbe): boolean {
  return (
    p.codec === 'h264' &&
    p.pixFmt === 'yuv420p' &&
    (p.audioCodec === null || p.audioCodec === 'aac') &&
    Math.max(p.width, p.height) <= MAX_SIDE
  );
}

// Global, stream and chapter metadata (GPS in QuickTime's ©xyz, device, dates) all go; bitexact keeps
// the encoder from writing its own name and version.
const STRIP = ['-map_metadata', '-1', '-map_chapters', '-1', '-fflags', '+bitexact', '-dn', '-sn'];

/**
 * Writes `output` (MP4). `onProgress` gets 0-100 as ffmpeg reports its position. Throws on failure, and
 * at once when `signal` aborts (ffmpeg is killed); the caller deletes whatever is half-written.
 */
export async function convertVideo(
  input: string,
  output: string,
  probe: VideoProbe,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const codecs = canRemux(probe)
    ? ['-c', 'copy']
    : [
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '24',
        '-pix_fmt',
        'yuv420p',
        '-vf',
        `scale='min(${MAX_SIDE},iw)':'min(${MAX_SIDE},ih)':force_original_aspect_ratio=decrease:force_divisible_by=2`,
        '-flags:v',
        '+bitexact',
        '-c:a',
        'aac',
        '-b:a',
        '128k',
        '-flags:a',
        '+bitexact',
      ];
  const args = [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-i',
    input,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    ...STRIP,
    ...codecs,
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
    '-nostats',
    '-f',
    'mp4',
    output,
  ];
  let buffered = '';
  const res = await run(
    'ffmpeg',
    args,
    (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m) onProgress(Math.min(99, Math.floor((Number(m[1]) / 1e6 / probe.duration) * 100)));
      }
    },
    signal,
  );
  if (res.code !== 0) throw new Error(`ffmpeg failed (${res.code}): ${res.stderr.split('\n').slice(-3).join(' ')}`);
}

/** One frame a second in (or half-way through a short clip), as PNG bytes for the image pipeline. */
export async function posterFrame(video: string, duration: number, signal?: AbortSignal): Promise<Buffer> {
  const at = Math.min(1, duration / 2).toFixed(2);
  return new Promise((resolve, reject) => {
    const child = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-ss',
        at,
        '-i',
        video,
        '-frames:v',
        '1',
        '-map_metadata',
        '-1',
        '-f',
        'image2pipe',
        '-c:v',
        'png',
        'pipe:1',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'], signal, killSignal: 'SIGKILL' },
    );
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const body = Buffer.concat(chunks);
      if (code === 0 && body.length) resolve(body);
      else reject(new Error(`ffmpeg could not take a poster frame (${code})`));
    });
  });
}

// Temporary directories of conversions (issue 42, item 8; docs/decisions/1011). An instance killed in the
// middle of a conversion (SIGKILL, out of memory, power) leaves the upload and a half-written MP4, up to
// a few hundred MB, that nothing would ever remove. Each directory is named after its process
// (directory-video-<host>-<pid>-<random>) and touched every minute while it is in use; the next
// conversion on the machine, and every start, removes those whose process is gone. A sibling instance
// sharing the temporary directory keeps its own: on this host its pid still answers, and one of another
// host (whose pids cannot be asked) is removed only when it has not been touched for an hour.

const CONVERSION_PREFIX = 'directory-video-';
const HEARTBEAT_MS = 60_000;
/** A directory untouched this long belongs to no running conversion, whoever made it. */
export const ORPHANED_AFTER_MS = 60 * 60_000;
/** The conversion directories this process made and has not closed. */
const madeHere = new Set<string>();

function conversionOwner(name: string): { host: string; pid: number } | undefined {
  const m = /^directory-video-(.+)-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
  if (!m) return undefined;
  try {
    return { host: decodeURIComponent(m[1]), pid: Number(m[2]) };
  } catch {
    return undefined;
  }
}

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function isOrphaned(dir: string, owner: { host: string; pid: number }, stat: Stats, now: number): boolean {
  if (now - stat.mtimeMs > ORPHANED_AFTER_MS) return true;
  if (owner.host !== os.hostname()) return false;
  // Our own pid, not made by us: an earlier process of this container that had the same pid.
  if (owner.pid === process.pid) return !madeHere.has(dir);
  return processIsGone(owner.pid);
}

/**
 * Removes the conversion directories under `root` whose process is gone; returns them. Never one of a
 * running process (this one's included).
 */
export async function removeOrphanedConversions(root = os.tmpdir()): Promise<string[]> {
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  const removed: string[] = [];
  const now = Date.now();
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(CONVERSION_PREFIX)) continue;
    const owner = conversionOwner(entry.name);
    const dir = path.resolve(root, entry.name);
    if (!owner) continue;
    const stat = await fs.stat(dir).catch(() => undefined);
    if (!stat || !isOrphaned(dir, owner, stat, now)) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

export interface ConversionDir {
  path: string;
  /** Removes the directory and what is in it. */
  close(): Promise<void>;
}

/** A temporary directory for one conversion, after removing those that dead processes left. */
export async function openConversionDir(root = os.tmpdir()): Promise<ConversionDir> {
  await removeOrphanedConversions(root);
  const name = `${CONVERSION_PREFIX}${encodeURIComponent(os.hostname())}-${process.pid}-`;
  const dir = path.resolve(await fs.mkdtemp(path.join(root, name)));
  madeHere.add(dir);
  const heartbeat = setInterval(() => {
    const now = new Date();
    fs.utimes(dir, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    path: dir,
    async close() {
      clearInterval(heartbeat);
      await fs.rm(dir, { recursive: true, force: true });
      madeHere.delete(dir);
    },
  };
}
