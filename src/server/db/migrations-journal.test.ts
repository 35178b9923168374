// drizzle's migrator applies, on a database already migrated, only the migrations whose journal time
// (`when`) is later than the last one it applied: a migration listed with an earlier time is skipped there
// for ever, though a new database gets it. Migration 0029 was written by hand with a time ahead of the
// clock, and 0030 (drizzle-kit, the clock's time) came out earlier: the bench's databases never got its
// indexes. Each migration must be later than the one before it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.join(import.meta.dirname, 'migrations');
const journal = JSON.parse(fs.readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8')) as {
  entries: Array<{ idx: number; when: number; tag: string }>;
};

describe('the migrations journal', () => {
  it('lists every migration later than the one before it, in file order', () => {
    const late = journal.entries.filter((e, i) => i > 0 && e.when <= journal.entries[i - 1].when).map((e) => e.tag);
    expect(late).toEqual([]);
    expect(journal.entries.map((e) => e.idx)).toEqual(journal.entries.map((_, i) => i));
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.replace(/\.sql$/, ''))
      .sort();
    expect(journal.entries.map((e) => e.tag)).toEqual(files);
  });
});
