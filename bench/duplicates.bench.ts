// Issue 23 item 16: how many transformed copies of a picture does the duplicate detector find, and how many
// unrelated pictures does it take for copies? Generates N fictional pictures (gradients and shapes, some
// under fine or coarse noise, a quarter pure noise texture), makes six copies of each (resized to 40 %,
// re-encoded at JPEG quality 35, WebP 50, cropped 3-4 % on three sides, mirrored, cropped 3 % and resized),
// and compares two 64-bit hashes at several thresholds:
//   current   what the pipeline stores today (image-pipeline.ts: the 320-pixel JPEG variant through
//             sharp-phash: DCT of a 32 x 32 grey image, bits above the mean), looked up as stored and, for
//             the mirror, with the mirrored picture's hash;
//   candidate the picture at 128 x 128 averaged down to 32 x 32 (no aliasing of fine texture), mean
//             removed, a sine window (edges weigh less, so a crop moves fewer bits), DCT, the 63 lowest
//             non-constant coefficients against their median; the mirror's hash comes from the same grid.
// Recall: copies within the threshold of their original; false matches: unrelated originals within it.
//
//   npx tsx bench/duplicates.bench.ts [--n 200]
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import phashLib from 'sharp-phash';

const { values } = parseArgs({ options: { n: { type: 'string', default: '200' } } });
const count = Number(values.n);

function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picture i: kind 0 shapes, 1 shapes under fine noise, 2 noise texture alone, 3 shapes under coarse noise. */
async function picture(i: number): Promise<Buffer> {
  const r = random(i * 7919 + 1);
  const w = 900 + Math.floor(r() * 700);
  const h = Math.round(w * (1.1 + r() * 0.4));
  const kind = i % 4;
  const colour = () => `rgb(${Math.floor(r() * 255)},${Math.floor(r() * 255)},${Math.floor(r() * 255)})`;
  let shapes = '';
  for (let k = 0; k < (kind === 2 ? 0 : 3 + Math.floor(r() * 6)); k++)
    shapes +=
      r() < 0.5
        ? `<ellipse cx="${r() * w}" cy="${r() * h}" rx="${50 + (r() * w) / 3}" ry="${50 + (r() * h) / 3}" fill="${colour()}" opacity="${0.5 + r() * 0.5}"/>`
        : `<rect x="${r() * w}" y="${r() * h}" width="${50 + (r() * w) / 2}" height="${50 + (r() * h) / 2}" fill="${colour()}" opacity="${0.5 + r() * 0.5}" transform="rotate(${r() * 40 - 20})"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="${r()}" y2="1"><stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  const scene = await sharp(Buffer.from(svg)).removeAlpha().png().toBuffer();
  if (kind === 0) return sharp(scene).jpeg({ quality: 92 }).toBuffer();
  const grain = kind === 3 ? 2 + r() * 30 : kind === 2 ? 3 + r() * 37 : 0.6 + r() * 3;
  const tint = [r(), r(), r()];
  const noise = Buffer.alloc(w * h * 3);
  for (let p = 0; p < w * h; p++) {
    const v = r() * 255;
    for (let c = 0; c < 3; c++) noise[p * 3 + c] = v * (0.5 + tint[c] / 2);
  }
  const texture = await sharp(noise, { raw: { width: w, height: h, channels: 3 } })
    .blur(grain)
    .png()
    .toBuffer();
  if (kind === 2) return sharp(texture).jpeg({ quality: 92 }).toBuffer();
  return sharp(scene)
    .composite([{ input: texture, blend: kind === 3 ? 'overlay' : 'soft-light' }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

const size = async (b: Buffer) => {
  const m = await sharp(b).metadata();
  return { w: m.width!, h: m.height! };
};
const COPIES: Record<string, (b: Buffer) => Promise<Buffer>> = {
  resized: async (b) =>
    sharp(b)
      .resize(Math.round((await size(b)).w * 0.4))
      .jpeg({ quality: 85 })
      .toBuffer(),
  reencoded: (b) => sharp(b).jpeg({ quality: 35 }).toBuffer(),
  webp: (b) => sharp(b).webp({ quality: 50 }).toBuffer(),
  cropped: async (b) => {
    const { w, h } = await size(b);
    const left = Math.round(w * 0.04);
    const top = Math.round(h * 0.03);
    return sharp(b)
      .extract({ left, top, width: w - 2 * left, height: h - top - Math.round(h * 0.02) })
      .jpeg({ quality: 85 })
      .toBuffer();
  },
  mirrored: (b) => sharp(b).flop().jpeg({ quality: 85 }).toBuffer(),
  'cropped+resized': async (b) => {
    const { w, h } = await size(b);
    const left = Math.round(w * 0.03);
    return sharp(b)
      .extract({ left, top: 0, width: w - left, height: h })
      .resize(500)
      .jpeg({ quality: 75 })
      .toBuffer();
  },
};

/** The pipeline's one decode (image-pipeline.ts): rotated, flattened, sRGB, at most 1280 wide. */
async function decoded(body: Buffer) {
  const { data, info } = await sharp(body)
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .resize({ width: 1280, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

type Hashes = { hash: bigint; mirror: bigint };

async function current(body: Buffer): Promise<Hashes> {
  const at320 = async (b: Buffer) => {
    const image = await decoded(b);
    const { width = 0 } = await image.clone().metadata();
    const small = await image.resize(Math.min(320, width)).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
    return BigInt(`0b${await phashLib(small)}`);
  };
  return { hash: await at320(body), mirror: await at320(await sharp(body).flop().toBuffer()) };
}

const N = 32;
const COS = Array.from({ length: 8 }, (_, k) =>
  Array.from({ length: N }, (_, n) => Math.cos(((2 * n + 1) * k * Math.PI) / (2 * N))),
);
const WINDOW = Array.from({ length: N }, (_, i) => Math.sin((Math.PI * (i + 0.5)) / N));

async function candidate(body: Buffer): Promise<Hashes> {
  const big = await (await decoded(body)).resize(128, 128, { fit: 'fill' }).toColourspace('b-w').raw().toBuffer();
  const grid = new Float64Array(N * N);
  for (let y = 0; y < 128; y++) for (let x = 0; x < 128; x++) grid[(y >> 2) * N + (x >> 2)] += big[y * 128 + x] / 16;
  const mean = grid.reduce((a, b) => a + b, 0) / grid.length;
  for (let y = 0; y < N; y++)
    for (let x = 0; x < N; x++) grid[y * N + x] = (grid[y * N + x] - mean) * WINDOW[x] * WINDOW[y];
  const bits = (mirror: boolean) => {
    const coefficients: number[] = [];
    const rows = Array.from({ length: N }, (_, y) =>
      COS.map((c) => c.reduce((sum, cos, x) => sum + cos * grid[y * N + (mirror ? N - 1 - x : x)], 0)),
    );
    for (let v = 0; v < 8; v++)
      for (let u = 0; u < 8; u++)
        if (u || v) coefficients.push(rows.reduce((sum, row, y) => sum + COS[v][y] * row[u], 0));
    const median = [...coefficients].sort((a, b) => a - b)[31];
    return coefficients.reduce((h, c) => (h << 1n) | (c > median ? 1n : 0n), 0n);
  };
  return { hash: bits(false), mirror: bits(true) };
}

const distance = (a: bigint, b: bigint) => {
  let x = BigInt.asUintN(64, a ^ b);
  let n = 0;
  for (; x; x &= x - 1n) n++;
  return n;
};
/** A new picture is looked up with its hash and its mirror's; the stored picture has its own hash only. */
const nearest = (stored: Hashes, fresh: Hashes) =>
  Math.min(distance(fresh.hash, stored.hash), distance(fresh.mirror, stored.hash));

const started = Date.now();
const originals = await Promise.all(Array.from({ length: count }, (_, i) => picture(i)));
const copies: Record<string, Buffer[]> = {};
for (const [name, make] of Object.entries(COPIES)) copies[name] = await Promise.all(originals.map(make));
console.log(
  `${count} pictures x ${Object.keys(COPIES).length} copies made in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);

const THRESHOLDS = [6, 8, 10, 12];
const rows: string[] = [];
for (const [name, hashOf] of Object.entries({ current, candidate })) {
  const stored: Hashes[] = [];
  for (const b of originals) stored.push(await hashOf(b));
  const found: Record<string, number[]> = {};
  for (const [copy, bodies] of Object.entries(copies)) {
    found[copy] = [];
    for (let i = 0; i < count; i++) found[copy].push(nearest(stored[i], await hashOf(bodies[i])));
  }
  const unrelated: number[] = [];
  for (let i = 0; i < count; i++)
    for (let j = 0; j < count; j++) if (i !== j) unrelated.push(nearest(stored[i], stored[j]));
  for (const t of THRESHOLDS) {
    const share = (d: number[]) => d.filter((x) => x <= t).length / d.length;
    const all = Object.values(found).flat();
    const perCopy = Object.keys(COPIES).map((c) => `${(100 * share(found[c])).toFixed(0)} %`);
    const falseMatches = unrelated.filter((x) => x <= t).length;
    rows.push(
      `| ${name} | ${t} | ${perCopy.join(' | ')} | **${(100 * share(all)).toFixed(1)} %** | ${falseMatches} of ${unrelated.length} (${((100 * falseMatches) / unrelated.length).toFixed(2)} %) |`,
    );
  }
  const texture = Object.values(found).flatMap((d) => d.filter((_, i) => i % 4 === 2));
  console.log(
    `${name}: pure textures' copies within 10 bits: ${texture.filter((x) => x <= 10).length} of ${texture.length}`,
  );
}
console.log(`\n| hash | bits | ${Object.keys(COPIES).join(' | ')} | recall | false matches |`);
console.log(
  `|---|---|${Object.keys(COPIES)
    .map(() => '---|')
    .join('')}---|---|`,
);
for (const row of rows) console.log(row);
