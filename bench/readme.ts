// Both benchmarks keep their latest figures in bench/README.md between two marker lines: the block is
// replaced (or appended the first time) and the file formatted as `npm run lint` expects it.
import fs from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';

export async function writeReadmeBlock(begin: string, end: string, block: string): Promise<void> {
  const readme = path.join(import.meta.dirname, 'README.md');
  const text = fs.readFileSync(readme, 'utf8');
  const at = text.indexOf(begin);
  const stop = text.indexOf(end);
  const next =
    at >= 0 && stop > at
      ? text.slice(0, at) + block + text.slice(stop + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  const options = (await prettier.resolveConfig(readme)) ?? {};
  fs.writeFileSync(readme, await prettier.format(next, { ...options, filepath: readme }));
  console.log('Written to bench/README.md.');
}
