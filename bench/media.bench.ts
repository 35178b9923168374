// How long does one 12-megapixel phone photo take to become everything we store (sniffed, auto-rotated,
// metadata stripped, WebP and JPEG at every width, placeholder, perceptual hash), and how much memory
// does it take? Runs the real pipeline (src/server/modules/media/image-pipeline.ts) in process.
//
//   npx tsx bench/media.bench.ts [--rounds 5]
import os from 'node:os';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { processImage } from '../src/server/modules/media/image-pipeline';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);

// 4000 x 3000 with detail everywhere (noise over a gradient), as a camera JPEG at quality 90 with EXIF.
const width = 4000;
const height = 3000;
const noise = await sharp({
  create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
})
  .jpeg({ quality: 90 })
  .withMetadata({ orientation: 6 })
  .toBuffer();
const input = await sharp(noise)
  .composite([
    {
      input: Buffer.from(
        `<svg width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#c2185b" stop-opacity=".6"/><stop offset="1" stop-color="#1565c0" stop-opacity=".6"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
      ),
    },
  ])
  .jpeg({ quality: 90 })
  .withMetadata({ orientation: 6 })
  .toBuffer();

const baseRss = process.memoryUsage().rss;
let peakRss = baseRss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
const times: number[] = [];
let variants = 0;
for (let i = 0; i < rounds; i++) {
  const start = process.hrtime.bigint();
  const out = await processImage(input, 'image/jpeg');
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
  variants = out.variants.length;
}
clearInterval(sampler);
peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
times.sort((a, b) => a - b);
const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
console.log(`input: ${width}x${height} JPEG, ${(input.length / 1024 / 1024).toFixed(1)} MB; ${variants} variants`);
console.log(`cores: ${os.cpus().length}, sharp concurrency ${sharp.concurrency()}`);
console.log(
  `time per photo: median ${times[Math.floor(times.length / 2)].toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms (${rounds} rounds)`,
);
console.log(`peak RSS: ${mb(peakRss)} MB (before: ${mb(baseRss)} MB)`);
