// Where uploaded files live: a directory of the instance (the embedded default) or S3-compatible object
// storage (s3-media-store.ts, chosen by S3_BUCKET). Public objects are the pictures and approved videos a
// page shows; private ones (photo IDs, staged and pending videos) are never reachable by a URL and are
// read only through the app's authorised routes. Every file the app writes or reads goes through here,
// so that any instance sees what another wrote (docs/decisions/1000).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

export type Visibility = 'public' | 'private';

export interface ObjectInfo {
  size: number;
  /** A strong validator, quoted as HTTP sends it. */
  etag: string;
  lastModified: Date;
  contentType: string;
}

/** Inclusive byte range, as HTTP's Range counts. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectStream extends ObjectInfo {
  body: Readable;
  /** The bytes `body` holds, when a range was asked for. */
  range: ByteRange | null;
}

export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** A small object from memory (pictures and their variants, photo IDs). */
  put(visibility: Visibility, key: string, body: Buffer, contentType: string): Promise<void>;
  /** A file streamed from disk (videos: up to 200 MB, never held in memory). */
  putFile(visibility: Visibility, key: string, file: string, contentType: string): Promise<void>;
  /** A small object into memory, or null when there is none. */
  get(visibility: Visibility, key: string): Promise<Buffer | null>;
  stat(visibility: Visibility, key: string): Promise<ObjectInfo | null>;
  /** The object (or a range of it) as a stream. */
  open(visibility: Visibility, key: string, range?: ByteRange): Promise<ObjectStream | null>;
  /** Streams the object into `file`; false when there is none. */
  download(visibility: Visibility, key: string, file: string): Promise<boolean>;
  /** A second object with the same bytes (the seed's pictures: no bytes go through the app). */
  copy(visibility: Visibility, from: string, to: string): Promise<void>;
  /** The object moves between the public and the private side (a video an admin approves). */
  move(key: string, from: Visibility, to: Visibility): Promise<boolean>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(visibility: Visibility, key: string): Promise<void>;
  /** Every key on one side (the move to another store, tests). */
  list(visibility: Visibility): AsyncIterable<string>;
  /** URL a browser can load for a public key. */
  publicUrl(key: string): string;
  /** Lets go of connections (the S3 client's sockets). */
  close?(): void;
}

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9/_.-]*$/;

export function checkKey(key: string) {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Unsafe media key: ${key}`);
}

const TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.avif': 'image/avif',
  '.mp4': 'video/mp4',
};

/** The type a file name says (a local directory keeps no types; keys always carry their extension). */
export function contentTypeOf(key: string) {
  return TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}

/** Public media are named by a random token and never change: caches may keep them. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=2592000, immutable';

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

export class LocalMediaStore implements MediaStore {
  readonly kind = 'local';
  constructor(readonly root: string) {}

  dir(visibility: Visibility) {
    return path.join(this.root, visibility);
  }

  private file(visibility: Visibility, key: string) {
    checkKey(key);
    return path.join(this.dir(visibility), key);
  }

  /** Writes through a temporary name, so a reader never sees half a file. */
  private async place(target: string, write: (tmp: string) => Promise<void>) {
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await write(tmp);
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async put(visibility: Visibility, key: string, body: Buffer) {
    await this.place(this.file(visibility, key), (tmp) => fsp.writeFile(tmp, body));
  }

  async putFile(visibility: Visibility, key: string, file: string) {
    await this.place(this.file(visibility, key), (tmp) => fsp.copyFile(file, tmp));
  }

  async get(visibility: Visibility, key: string) {
    try {
      return await fsp.readFile(this.file(visibility, key));
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async stat(visibility: Visibility, key: string): Promise<ObjectInfo | null> {
    try {
      const s = await fsp.stat(this.file(visibility, key));
      if (!s.isFile()) return null;
      return {
        size: s.size,
        etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`,
        lastModified: s.mtime,
        contentType: contentTypeOf(key),
      };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async open(visibility: Visibility, key: string, range?: ByteRange): Promise<ObjectStream | null> {
    const info = await this.stat(visibility, key);
    if (!info) return null;
    const body = fs.createReadStream(this.file(visibility, key), range ?? {});
    return { ...info, body, range: range ?? null };
  }

  async download(visibility: Visibility, key: string, file: string) {
    try {
      await fsp.copyFile(this.file(visibility, key), file);
      return true;
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
  }

  async copy(visibility: Visibility, from: string, to: string) {
    const source = this.file(visibility, from);
    const target = this.file(visibility, to);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    try {
      // A hard link: no bytes copied, and deleting one name never touches the other.
      await fsp.link(source, target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
      if (code === 'ENOENT') throw err;
      // Other file systems (EXDEV, EPERM): a real copy.
      await this.place(target, (tmp) => fsp.copyFile(source, tmp));
    }
  }

  async move(key: string, from: Visibility, to: Visibility) {
    const target = this.file(to, key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    try {
      await fsp.rename(this.file(from, key), target);
      return true;
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
  }

  async delete(visibility: Visibility, key: string) {
    await fsp.rm(this.file(visibility, key), { force: true });
  }

  async *list(visibility: Visibility): AsyncIterable<string> {
    const dir = this.dir(visibility);
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
    } catch (err) {
      if (missing(err)) return;
      throw err;
    }
    for (const e of entries) {
      if (!e.isFile() || e.name.endsWith('.tmp')) continue;
      yield path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
    }
  }

  publicUrl(key: string) {
    return `/media/${key}`;
  }
}

/** Streams `body` into `file` (a download's last step, shared by the stores). */
export async function writeStream(body: Readable, file: string) {
  await pipeline(body, fs.createWriteStream(file));
}
