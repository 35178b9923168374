// A conversion in a process of its own, for video-temp.test.ts, which kills it (SIGKILL) or stops it
// (SIGSTOP) in the middle: the video job's conversion directory (openConversionDir, under the temporary
// directory given after the input), the upload copied in, ffmpeg writing the MP4. Prints `dir <path>`,
// then `converting` at ffmpeg's first progress report, and `done` once the conversion has ended and its
// directory is removed.
import fs from 'node:fs/promises';
import path from 'node:path';
import { convertVideo, openConversionDir, probeVideo } from '../modules/media/video-pipeline';

const [input, tmp] = process.argv.slice(2);
const work = await openConversionDir(tmp);
console.log(`dir ${work.path}`);
const copy = path.join(work.path, 'in');
await fs.copyFile(input, copy);
const probe = await probeVideo(copy, undefined);
let told = false;
await convertVideo(copy, path.join(work.path, 'out.mp4'), probe, () => {
  if (told) return;
  told = true;
  console.log('converting');
});
await work.close();
console.log('done');
