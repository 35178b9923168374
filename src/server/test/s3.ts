// A real S3-compatible server for tests (s3rver: the S3 REST API over a scratch directory), on a free
// port of 127.0.0.1, with a public and a private bucket. `env` is what an app instance needs to use it
// (createTestApp(s3.env), or the environment of a server process); close() stops it and removes its files.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
// s3rver ships no types; its constructor options and run/close are all a test needs.
// @ts-expect-error -- untyped CommonJS module
import S3rver from 's3rver';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

export interface TestS3 {
  endpoint: string;
  bucket: string;
  privateBucket: string;
  /** S3_* variables naming this server and its two buckets (path-style, s3rver's fixed key pair). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const suffix = crypto.randomBytes(4).toString('hex');
  const bucket = `media-${suffix}`;
  const privateBucket = `private-${suffix}`;
  const server = new (S3rver as new (options: object) => S3rverInstance)({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }, { name: privateBucket }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    privateBucket,
    env: {
      S3_BUCKET: bucket,
      S3_PRIVATE_BUCKET: privateBucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
