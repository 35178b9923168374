// S3-compatible object storage (AWS S3, MinIO, Garage, R2, s3rver in tests) behind the MediaStore
// interface: public objects in one bucket, private ones (photo IDs, videos waiting for an admin) in a
// second bucket that no URL the app emits ever names (docs/decisions/1000).
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  checkKey,
  PUBLIC_CACHE_CONTROL,
  writeStream,
  type ByteRange,
  type MediaStore,
  type ObjectInfo,
  type ObjectStream,
  type Visibility,
} from './media-store';

export interface S3StoreConfig {
  bucket: string;
  privateBucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** Where browsers load public objects (a CDN or the public bucket); unset, the app serves /media/. */
  publicUrl?: string;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * The SDK retries its requests, but not one whose body is a stream: a kept-alive socket the server has
 * just closed (ECONNRESET) would fail a video upload or download. Those are tried again with a fresh
 * stream; an answer from the server that refuses the request (4xx) is not.
 */
async function retried<T>(attempt: () => Promise<T>, tries = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
      if (i >= tries || (status >= 400 && status < 500)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * i));
    }
  }
}

export class S3MediaStore implements MediaStore {
  readonly kind = 's3';
  readonly client: S3Client;

  constructor(readonly config: S3StoreConfig) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // The SDK's default checksums (a CRC trailer in aws-chunked uploads) are AWS's own: MinIO, Garage,
      // R2 and s3rver differ in what they accept. Checksums only where an operation requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private bucket(visibility: Visibility) {
    return visibility === 'public' ? this.config.bucket : this.config.privateBucket;
  }

  private target(visibility: Visibility, key: string) {
    checkKey(key);
    return { Bucket: this.bucket(visibility), Key: key };
  }

  private headers(visibility: Visibility, contentType: string) {
    return {
      ContentType: contentType,
      CacheControl: visibility === 'public' ? PUBLIC_CACHE_CONTROL : 'private, no-store',
    };
  }

  async put(visibility: Visibility, key: string, body: Buffer, contentType: string) {
    await this.client.send(
      new PutObjectCommand({ ...this.target(visibility, key), Body: body, ...this.headers(visibility, contentType) }),
    );
  }

  async putFile(visibility: Visibility, key: string, file: string, contentType: string) {
    // One PUT with a known length streams the file (S3 takes up to 5 GB so; videos stop at 200 MB).
    const { size } = await fs.promises.stat(file);
    await retried(() =>
      this.client.send(
        new PutObjectCommand({
          ...this.target(visibility, key),
          Body: fs.createReadStream(file),
          ContentLength: size,
          ...this.headers(visibility, contentType),
        }),
      ),
    );
  }

  async get(visibility: Visibility, key: string) {
    const object = await this.open(visibility, key);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async stat(visibility: Visibility, key: string): Promise<ObjectInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand(this.target(visibility, key)));
      return {
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? `"${key}"`,
        lastModified: head.LastModified ?? new Date(0),
        contentType: head.ContentType ?? 'application/octet-stream',
      };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async open(visibility: Visibility, key: string, range?: ByteRange): Promise<ObjectStream | null> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          ...this.target(visibility, key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = res.ContentRange ? Number(res.ContentRange.split('/')[1]) : res.ContentLength;
      return {
        body: res.Body as Readable,
        size: total ?? 0,
        etag: res.ETag ?? `"${key}"`,
        lastModified: res.LastModified ?? new Date(0),
        contentType: res.ContentType ?? 'application/octet-stream',
        range: range ?? null,
      };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async download(visibility: Visibility, key: string, file: string) {
    return retried(async () => {
      const object = await this.open(visibility, key);
      if (!object) return false;
      await writeStream(object.body, file);
      return true;
    });
  }

  async copy(visibility: Visibility, from: string, to: string) {
    checkKey(from);
    await this.client.send(
      new CopyObjectCommand({ ...this.target(visibility, to), CopySource: `${this.bucket(visibility)}/${from}` }),
    );
  }

  async move(key: string, from: Visibility, to: Visibility) {
    const source = this.target(from, key);
    try {
      // A server-side copy: the bytes never pass through the app. Cache headers follow the new side.
      const info = await this.stat(from, key);
      if (!info) return false;
      await this.client.send(
        new CopyObjectCommand({
          ...this.target(to, key),
          CopySource: `${source.Bucket}/${key}`,
          MetadataDirective: 'REPLACE',
          ...this.headers(to, info.contentType),
        }),
      );
    } catch (err) {
      if (notFound(err)) return false;
      throw err;
    }
    await this.client.send(new DeleteObjectCommand(source));
    return true;
  }

  async delete(visibility: Visibility, key: string) {
    await this.client.send(new DeleteObjectCommand(this.target(visibility, key)));
  }

  async *list(visibility: Visibility): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket(visibility), ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  publicUrl(key: string) {
    return this.config.publicUrl ? `${this.config.publicUrl.replace(/\/+$/, '')}/${key}` : `/media/${key}`;
  }

  close() {
    this.client.destroy();
  }
}
