// The icons and the web app manifest that scripts/make-icons.ts made (issue 23, item 13): /favicon.ico is
// a real ICO, every icon the manifest names exists at the size it states, and the page's head links them.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..');
const PUBLIC = path.join(ROOT, 'public');

describe('icons and web app manifest', () => {
  it('favicon.ico is an ICO of 16, 32 and 48 px PNG images', async () => {
    const ico = fs.readFileSync(path.join(PUBLIC, 'favicon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const [length, offset] = [ico.readUInt32LE(entry + 8), ico.readUInt32LE(entry + 12)];
      const meta = await sharp(ico.subarray(offset, offset + length)).metadata();
      expect(meta.format).toBe('png');
      expect(meta.width).toBe(ico.readUInt8(entry));
      sizes.push(meta.width);
    }
    expect(sizes).toEqual([16, 32, 48]);
  });

  it('the manifest makes the site installable: name, start URL, standalone, 192 and 512 px icons, a maskable one', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(PUBLIC, 'manifest.webmanifest'), 'utf8')) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      icons: Array<{ src: string; type: string; sizes: string; purpose?: string }>;
    };
    expect(manifest).toMatchObject({ name: expect.any(String), start_url: '/', display: 'standalone' });
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    for (const icon of manifest.icons) {
      const file = path.join(PUBLIC, icon.src);
      expect(fs.existsSync(file), icon.src).toBe(true);
      if (icon.sizes === 'any') continue;
      const meta = await sharp(file).metadata();
      expect(`${meta.width}x${meta.height}`, icon.src).toBe(icon.sizes);
      expect(`image/${meta.format}`).toBe(icon.type);
    }
    const sizes = manifest.icons.map((i) => i.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  });

  it("the page's head links the favicon, the SVG icon, the touch icon and the manifest, all in public/", () => {
    const html = fs.readFileSync(path.join(ROOT, 'index.html'), 'utf8');
    const links = [...html.matchAll(/<link rel="(icon|apple-touch-icon|manifest)" href="([^"]+)"/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(links).toEqual([
      ['icon', '/favicon.ico'],
      ['icon', '/icon.svg'],
      ['apple-touch-icon', '/apple-touch-icon.png'],
      ['manifest', '/manifest.webmanifest'],
    ]);
    for (const [, href] of links) expect(fs.existsSync(path.join(PUBLIC, href)), href).toBe(true);
  });
});
