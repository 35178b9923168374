// Issue 14.1: every text answer compressed (brotli, gzip fallback), built assets sent precompressed as
// stored, images left alone.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { BERLIN, createAdvertiser, seedGeo } from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';

let t: TestApp;
let app: FastifyInstance;
const chunk = `export const words = ${JSON.stringify('companion directory '.repeat(400))};\n`;
let storedBrotli: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  for (let i = 0; i < 8; i++) await createAdvertiser(t.ctx, { city: BERLIN });
  const clientDir = path.join(t.dataDir, 'client');
  fs.mkdirSync(path.join(clientDir, 'dyn'), { recursive: true });
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    `<!doctype html><html><head><title>Directory</title></head><body><div id="root"></div><!--${'x'.repeat(4000)}--></body></html>`,
  );
  fs.writeFileSync(path.join(clientDir, 'dyn', 'app-abc.js'), chunk);
  // As the build writes it (vite.config.ts precompress): the server must send these bytes, not its own.
  storedBrotli = zlib.brotliCompressSync(chunk, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
  fs.writeFileSync(path.join(clientDir, 'dyn', 'app-abc.js.br'), storedBrotli);
  fs.writeFileSync(path.join(clientDir, 'dyn', 'app-abc.js.gz'), zlib.gzipSync(chunk, { level: 9 }));
  fs.mkdirSync(path.join(t.dataDir, 'media', 'public'), { recursive: true });
  fs.writeFileSync(path.join(t.dataDir, 'media', 'public', 'photo.jpg'), Buffer.alloc(8000, 7));
  app = await buildApp(t.ctx, { serveClient: true, clientDir });
});
afterAll(async () => {
  await app.close();
  await t.close();
});

describe('compression', () => {
  it('sends a built chunk precompressed as stored, brotli first, gzip for older clients, plain otherwise', async () => {
    const br = await app.inject({
      method: 'GET',
      url: '/dyn/app-abc.js?v=1',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(storedBrotli)).toBe(true);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(chunk);

    const gz = await app.inject({ method: 'GET', url: '/dyn/app-abc.js?v=1', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(chunk);

    const plain = await app.inject({ method: 'GET', url: '/dyn/app-abc.js?v=1' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(chunk);
  });

  it('compresses pages and API answers on the fly', async () => {
    const page = await app.inject({ method: 'GET', url: '/countries', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root">');

    const api = await app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory',
      headers: { 'accept-encoding': 'gzip' },
      payload: { category: 'escorts', country: 'germany' },
    });
    expect(api.statusCode).toBe(200);
    expect(api.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(api.rawPayload).toString()).data).toHaveLength(8);
  });

  it('leaves images alone', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/media/photo.jpg',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBe(8000);
  });
});
