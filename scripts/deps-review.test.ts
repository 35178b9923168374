// The offline dependency review (README "Dependencies and their review"; issue 8 item 15).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { review } from './deps-review';

const ROOT = path.join(import.meta.dirname, '..');

function copyWith(change: {
  readme?: (s: string) => string;
  lock?: (l: { packages: Record<string, object> }) => void;
}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deps-review-'));
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  fs.writeFileSync(path.join(dir, 'README.md'), change.readme ? change.readme(readme) : readme);
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  change.lock?.(lock);
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock));
  return dir;
}

describe('deps:review', () => {
  it('finds nothing in the project as it is', () => {
    const { problems, summary } = review(ROOT);
    expect(problems).toEqual([]);
    expect(summary).toMatch(/direct production dependencies/);
  });

  it('names a production dependency the README does not explain, a copyleft licence, a missing hash, an install script', () => {
    const dir = copyWith({
      readme: (s) => s.replace(/^\| uplot .*\n/m, ''),
      lock: (l) => {
        l.packages['node_modules/zod'] = { ...l.packages['node_modules/zod'], license: 'GPL-3.0-only' };
        l.packages['node_modules/luxon'] = { version: '3.7.2', license: 'MIT', hasInstallScript: true };
      },
    });
    try {
      const { problems } = review(dir);
      expect(problems).toEqual([
        expect.stringMatching(/^uplot: .*does not explain/),
        expect.stringMatching(/^luxon@3\.7\.2: locked without a sha512 hash/),
        expect.stringMatching(/^luxon@3\.7\.2: runs an install script/),
        expect.stringMatching(/^zod@.*licence GPL-3\.0-only needs a look/),
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
