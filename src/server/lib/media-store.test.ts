// Both stores keep the same promises: what one instance writes another reads, by range too, and a
// private object never appears on the public side.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../test/s3';
import { LocalMediaStore, type MediaStore } from './media-store';
import { S3MediaStore } from './s3-media-store';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const stores: Array<[string, () => MediaStore]> = [
  ['local directory', () => new LocalMediaStore(fs.mkdtempSync(path.join(tmp, 'local-')))],
  [
    'S3',
    () =>
      new S3MediaStore({
        bucket: s3.bucket,
        privateBucket: s3.privateBucket,
        region: 'us-east-1',
        endpoint: s3.endpoint,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      }),
  ],
];

async function collect(it: AsyncIterable<string>) {
  const keys: string[] = [];
  for await (const k of it) keys.push(k);
  return keys.sort();
}

describe.each(stores)('%s store', (_name, make) => {
  let store: MediaStore;
  beforeAll(() => {
    store = make();
  });
  const key = () => `u/1/${crypto.randomBytes(6).toString('hex')}-320.jpg`;

  it('reads back what it wrote, with its type and a validator; a missing key is null', async () => {
    const k = key();
    await store.put('public', k, Buffer.from('jpeg bytes'), 'image/jpeg');
    expect((await store.get('public', k))?.toString()).toBe('jpeg bytes');
    const info = await store.stat('public', k);
    expect(info).toMatchObject({ size: 10, contentType: 'image/jpeg' });
    expect(info!.etag).toMatch(/^".+"$/);
    expect(await store.get('public', `${k}.nothing`)).toBeNull();
    expect(await store.stat('public', `${k}.nothing`)).toBeNull();
    expect(await store.open('public', `${k}.nothing`)).toBeNull();
  });

  it('streams a file in and out, and a range of it', async () => {
    const file = path.join(tmp, `big-${crypto.randomBytes(4).toString('hex')}`);
    const bytes = crypto.randomBytes(3 * 1024 * 1024 + 17);
    fs.writeFileSync(file, bytes);
    const k = `staging/1/${crypto.randomBytes(6).toString('hex')}`;
    await store.putFile('private', k, file, 'video/mp4');
    const back = `${file}.back`;
    expect(await store.download('private', k, back)).toBe(true);
    expect(fs.readFileSync(back).equals(bytes)).toBe(true);
    const part = await store.open('private', k, { start: 1000, end: 1999 });
    expect(part).toMatchObject({ size: bytes.length, range: { start: 1000, end: 1999 } });
    const chunks: Buffer[] = [];
    for await (const c of part!.body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(bytes.subarray(1000, 2000))).toBe(true);
    expect(await store.download('private', `${k}x`, back)).toBe(false);
  });

  it('keeps private objects off the public side; a move brings them over and away', async () => {
    const k = key().replace('u/', 'v/');
    await store.put('private', k, Buffer.from('poster'), 'image/jpeg');
    expect(await store.get('public', k)).toBeNull();
    expect(await collect(store.list('public'))).not.toContain(k);
    expect(await collect(store.list('private'))).toContain(k);
    expect(await store.move(k, 'private', 'public')).toBe(true);
    expect((await store.get('public', k))?.toString()).toBe('poster');
    expect((await store.stat('public', k))?.contentType).toBe('image/jpeg');
    expect(await store.get('private', k)).toBeNull();
    expect(await store.move(k, 'private', 'public')).toBe(false);
  });

  it('copies an object, deletes one name without the other, and deleting twice is fine', async () => {
    const a = key();
    const b = key();
    await store.put('public', a, Buffer.from('pool'), 'image/webp');
    await store.copy('public', a, b);
    await store.delete('public', a);
    await store.delete('public', a);
    expect(await store.get('public', a)).toBeNull();
    expect((await store.get('public', b))?.toString()).toBe('pool');
  });

  it('refuses a key that could leave its place', async () => {
    await expect(store.put('public', '../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Unsafe/);
    await expect(store.get('public', '/abs')).rejects.toThrow(/Unsafe/);
  });
});
