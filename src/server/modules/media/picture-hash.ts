// The perceptual hash every stored picture carries, to find the same photo in another account
// (docs/decisions/0507). The picture at 128 x 128, averaged down to a 32 x 32 grey grid (averaging, not
// sampling: a fine texture does not alias into a different grid when the copy is resized), mean removed,
// a sine window (the edges weigh less, so a crop of a few percent moves few bits), a DCT, and the 63
// lowest non-constant coefficients against their median: 63 bits in a signed 64-bit integer.
// The mirror's hash comes from the same grid read right to left, so a flipped copy is found by looking
// up the new picture's mirror hash among the stored hashes (which stay unmirrored).
// bench/duplicates.bench.ts measured it against the hash before it (sharp-phash on the 320 JPEG).
import sharp, { type Sharp } from 'sharp';

/** Bumped when the hash changes: rows of an older version are re-hashed and never compared across. */
export const PICTURE_HASH_VERSION = 2;

export interface PictureHashes {
  hash: bigint;
  mirror: bigint;
}

const N = 32;
const SIDE = 128;
const COS = Array.from({ length: 8 }, (_, k) =>
  Array.from({ length: N }, (_, n) => Math.cos(((2 * n + 1) * k * Math.PI) / (2 * N))),
);
const WINDOW = Array.from({ length: N }, (_, i) => Math.sin((Math.PI * (i + 0.5)) / N));

function bits(grid: Float64Array, mirror: boolean): bigint {
  // Row transform (8 frequencies per row), then column transform: the 8 x 8 lowest frequencies.
  const rows = Array.from({ length: N }, (_, y) =>
    COS.map((c) => c.reduce((sum, cos, x) => sum + cos * grid[y * N + (mirror ? N - 1 - x : x)], 0)),
  );
  const coefficients: number[] = [];
  for (let v = 0; v < 8; v++)
    for (let u = 0; u < 8; u++)
      if (u || v) coefficients.push(rows.reduce((sum, row, y) => sum + COS[v][y] * row[u], 0));
  const median = [...coefficients].sort((a, b) => a - b)[31];
  return BigInt.asIntN(
    64,
    coefficients.reduce((h, c) => (h << 1n) | (c > median ? 1n : 0n), 0n),
  );
}

/** The hashes of a decoded picture (sharp's pipeline of it, already rotated and flattened). */
export async function pictureHashes(image: Sharp): Promise<PictureHashes> {
  const big = await image.resize(SIDE, SIDE, { fit: 'fill' }).toColourspace('b-w').raw().toBuffer();
  const channels = big.length / (SIDE * SIDE);
  const grid = new Float64Array(N * N);
  for (let y = 0; y < SIDE; y++)
    for (let x = 0; x < SIDE; x++) grid[(y >> 2) * N + (x >> 2)] += big[(y * SIDE + x) * channels] / 16;
  const mean = grid.reduce((a, b) => a + b, 0) / grid.length;
  for (let y = 0; y < N; y++)
    for (let x = 0; x < N; x++) grid[y * N + x] = (grid[y * N + x] - mean) * WINDOW[x] * WINDOW[y];
  return { hash: bits(grid, false), mirror: bits(grid, true) };
}

/** The hashes of an encoded picture (a stored JPEG variant: re-hashing rows of an older version). */
export async function hashEncodedPicture(body: Buffer): Promise<PictureHashes> {
  return pictureHashes(sharp(body).rotate().flatten({ background: '#ffffff' }).toColourspace('srgb'));
}
