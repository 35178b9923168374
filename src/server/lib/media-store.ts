// Where uploaded files live. Public objects are served under /media/<key>; private ones (photo IDs)
// are never reachable by URL and are read only by admin routes through this interface.
import fs from 'node:fs/promises';
import path from 'node:path';

export type Visibility = 'public' | 'private';

export interface MediaStore {
  put(visibility: Visibility, key: string, body: Buffer, contentType: string): Promise<void>;
  get(visibility: Visibility, key: string): Promise<Buffer | null>;
  delete(visibility: Visibility, key: string): Promise<void>;
  /** URL a browser can load for a public key. */
  publicUrl(key: string): string;
}

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9/_.-]*$/;

function checkKey(key: string) {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Unsafe media key: ${key}`);
}

export class LocalMediaStore implements MediaStore {
  constructor(readonly root: string) {}

  dir(visibility: Visibility) {
    return path.join(this.root, visibility);
  }

  async put(visibility: Visibility, key: string, body: Buffer) {
    checkKey(key);
    const file = path.join(this.dir(visibility), key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, body);
    await fs.rename(tmp, file);
  }

  async get(visibility: Visibility, key: string) {
    checkKey(key);
    try {
      return await fs.readFile(path.join(this.dir(visibility), key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(visibility: Visibility, key: string) {
    checkKey(key);
    await fs.rm(path.join(this.dir(visibility), key), { force: true });
  }

  publicUrl(key: string) {
    return `/media/${key}`;
  }
}
