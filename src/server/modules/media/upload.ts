// Reading a multipart upload at the HTTP edge: exactly one file, in the field named `file`, within a
// size limit. Routes hand the bytes (or a temporary file) to the services, which know no HTTP.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { msg } from '#shared/api/messages.ts';
import { ValidationError } from '../../lib/errors';

export interface Upload {
  body: Buffer;
  /** The Content-Type the client declared for the part (checked against the bytes, never trusted). */
  declaredType: string;
}

const noFile = () => ValidationError.field('file', msg('media.noFile'));
const tooLarge = (maxBytes: number) =>
  ValidationError.field('file', msg('media.tooLarge', { max: Math.round(maxBytes / 1024 / 1024) }));

async function filePart(request: FastifyRequest, maxBytes: number) {
  if (!request.isMultipart()) throw noFile();
  let part;
  try {
    part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 5 } });
  } catch {
    throw noFile();
  }
  if (!part || part.fieldname !== 'file') {
    part?.file.resume();
    throw noFile();
  }
  return part;
}

/** The file in memory (pictures, at most a few tens of MB). */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  const part = await filePart(request, maxBytes);
  let body: Buffer;
  try {
    body = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    throw noFile();
  }
  if (!body.length) throw noFile();
  return { body, declaredType: part.mimetype };
}

export interface TempUpload {
  path: string;
  bytes: number;
  declaredType: string;
  /** Removes the temporary file; call it in a finally. */
  remove(): Promise<void>;
}

/** The file streamed to a temporary file (videos: too big to hold in memory). */
export async function readUploadToFile(request: FastifyRequest, maxBytes: number): Promise<TempUpload> {
  const part = await filePart(request, maxBytes);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'upload-'));
  const file = path.join(dir, crypto.randomBytes(8).toString('hex'));
  const remove = () => fs.promises.rm(dir, { recursive: true, force: true });
  try {
    await pipeline(part.file, fs.createWriteStream(file));
    if (part.file.truncated) throw tooLarge(maxBytes);
    const { size } = await fs.promises.stat(file);
    if (!size) throw noFile();
    return { path: file, bytes: size, declaredType: part.mimetype, remove };
  } catch (err) {
    await remove();
    if (err instanceof ValidationError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    throw noFile();
  }
}
