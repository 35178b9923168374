import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseLockedError, openDatabase } from './client';
import { backend } from '../test/helpers';

describe.runIf(backend === 'pglite')('embedded PGlite directory', () => {
  it('refuses a second open of the same directory with a clear message, and reopens after close', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dir-lock-'));
    const first = await openDatabase({ pgliteDir: dir });
    await expect(openDatabase({ pgliteDir: dir })).rejects.toBeInstanceOf(DatabaseLockedError);
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(/already open in another process/);
    await first.close();
    const again = await openDatabase({ pgliteDir: dir });
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
