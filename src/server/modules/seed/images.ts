// Placeholder pictures for demo profiles: abstract gradients and shapes, never photographs of people.
// Avatars carry a large initial; gallery pictures are shapes only. Rendered once per seed run.
import sharp from 'sharp';
import type { Random } from './random';

export const IMAGE_WIDTH = 480;
export const IMAGE_HEIGHT = 640;

export interface PoolImage {
  body: Buffer;
  width: number;
  height: number;
}

const PALETTES: Array<[string, string, string]> = [
  ['#2b1055', '#d53369', '#ffd1dc'],
  ['#0f2027', '#2c5364', '#9fd8df'],
  ['#42275a', '#734b6d', '#f3c6d3'],
  ['#1d2b64', '#f8cdda', '#ffffff'],
  ['#3a1c71', '#d76d77', '#ffaf7b'],
  ['#134e5e', '#71b280', '#e8f5c8'],
  ['#5f2c82', '#49a09d', '#d4f1f4'],
  ['#232526', '#414345', '#c9a96e'],
  ['#4b134f', '#c94b4b', '#f7d9c4'],
  ['#0b486b', '#f56217', '#fde2c8'],
  ['#16222a', '#3a6073', '#b8d8e8'],
  ['#603813', '#b29f94', '#f4ece6'],
  ['#2c3e50', '#fd746c', '#ffe0d6'],
  ['#870000', '#190a05', '#e8b4a0'],
  ['#1f1c2c', '#928dab', '#e6e1f7'],
  ['#003973', '#e5e5be', '#fffbe8'],
];

function shapes(rnd: Random, light: string): string {
  const out: string[] = [];
  const circles = rnd.int(3, 7);
  for (let i = 0; i < circles; i++) {
    const r = rnd.int(40, 220);
    out.push(
      `<circle cx="${rnd.int(-40, IMAGE_WIDTH + 40)}" cy="${rnd.int(-40, IMAGE_HEIGHT + 40)}" r="${r}" fill="${light}" fill-opacity="${(0.06 + rnd.next() * 0.18).toFixed(2)}"/>`,
    );
  }
  const waves = rnd.int(1, 3);
  for (let i = 0; i < waves; i++) {
    const y = rnd.int(220, 600);
    const a = rnd.int(30, 110);
    out.push(
      `<path d="M0 ${y} C 160 ${y - a}, 320 ${y + a}, ${IMAGE_WIDTH} ${y - a / 2} L ${IMAGE_WIDTH} ${IMAGE_HEIGHT} L 0 ${IMAGE_HEIGHT} Z" fill="${light}" fill-opacity="${(0.05 + rnd.next() * 0.12).toFixed(2)}"/>`,
    );
  }
  return out.join('');
}

function svg(rnd: Random, initial: string | null): string {
  const [dark, mid, light] = rnd.pick(PALETTES);
  const angle = rnd.int(0, 359);
  const letter = initial
    ? `<text x="${IMAGE_WIDTH / 2}" y="${IMAGE_HEIGHT / 2 + 75}" text-anchor="middle" font-family="DejaVu Serif, Georgia, 'Times New Roman', serif" font-size="230" fill="#ffffff" fill-opacity="0.88">${initial}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}">
<defs><linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${mid}"/></linearGradient></defs>
<rect width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" fill="url(#g)"/>${shapes(rnd, light)}${letter}</svg>`;
}

async function render(source: string): Promise<PoolImage> {
  const body = await sharp(Buffer.from(source)).webp({ quality: 72 }).toBuffer();
  return { body, width: IMAGE_WIDTH, height: IMAGE_HEIGHT };
}

/** One avatar per initial letter and `galleryCount` shape-only pictures. */
export async function renderPool(
  rnd: Random,
  initials: readonly string[],
  galleryCount: number,
): Promise<{ avatars: Map<string, PoolImage>; gallery: PoolImage[] }> {
  const avatarSources = initials.map((letter) => [letter, svg(rnd, letter)] as const);
  const gallerySources = Array.from({ length: galleryCount }, () => svg(rnd, null));
  const [avatars, gallery] = await Promise.all([
    Promise.all(avatarSources.map(async ([letter, source]) => [letter, await render(source)] as const)),
    Promise.all(gallerySources.map(render)),
  ]);
  return { avatars: new Map(avatars), gallery };
}
