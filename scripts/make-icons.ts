// Makes the site's icons in public/ from one drawing (a diamond on the top bar's colour: nothing
// explicit, nothing downloaded): favicon.ico (PNG inside an ICO, which every browser reads), the SVG
// icon, the apple-touch icon and the web app manifest's icons, one of them maskable (drawn inside the
// safe circle, full bleed). Vite copies public/ into the build. Run: npx tsx scripts/make-icons.ts
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const OUT = path.join(import.meta.dirname, '..', 'public');
const BG = '#1c1917';
const MARK = '#f9a8d4';

/** The drawing on a 32-unit square; `inset` shrinks the mark (maskable icons keep it in the middle 80 %). */
const drawing = (rounded: boolean, inset = 0) => {
  const s = 1 - inset;
  const c = 16;
  const p = (x: number, y: number) => `${(c + (x - c) * s).toFixed(2)} ${(c + (y - c) * s).toFixed(2)}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect width="32" height="32"${rounded ? ' rx="7"' : ''} fill="${BG}"/>` +
    `<path d="M${p(16, 5)}L${p(25, 16)}L${p(16, 27)}L${p(7, 16)}z" fill="${MARK}"/></svg>\n`
  );
};

async function png(svg: string, size: number): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** An ICO holding PNG images (allowed since Windows Vista; every current browser reads it). */
function ico(images: Array<{ size: number; data: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

const rounded = drawing(true);
const square = drawing(false);
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(path.join(OUT, 'icon.svg'), rounded);
fs.writeFileSync(
  path.join(OUT, 'favicon.ico'),
  ico([
    { size: 16, data: await png(rounded, 16) },
    { size: 32, data: await png(rounded, 32) },
    { size: 48, data: await png(rounded, 48) },
  ]),
);
fs.writeFileSync(path.join(OUT, 'apple-touch-icon.png'), await png(square, 180));
fs.writeFileSync(path.join(OUT, 'icon-192.png'), await png(rounded, 192));
fs.writeFileSync(path.join(OUT, 'icon-512.png'), await png(rounded, 512));
fs.writeFileSync(path.join(OUT, 'icon-maskable-512.png'), await png(drawing(false, 0.25), 512));
console.log(`icons written to ${OUT}`);
