// The architecture rules of issue 22 fire: a file that breaks one is planted in the tree, linted with the
// project's own configuration, and removed. Each case also lints the same code where it is allowed, so a
// rule that fires everywhere (or a selector that never matches) fails here too.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const planted: string[] = [];

function plant(relative: string, code: string) {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, code);
  planted.push(file);
  return file;
}

afterAll(() => {
  for (const file of planted) fs.rmSync(file, { force: true });
  for (const dir of new Set(planted.map((f) => path.dirname(f)))) {
    if (path.basename(dir).startsWith('zz-planted-')) fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The project's configuration without type information: the rules under test read syntax only, and a
// type-aware program would cost most of a minute.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId.startsWith('no-restricted-'),
});

async function messages(file: string) {
  const [result] = await eslint.lintFiles([file]);
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const tag = crypto.randomBytes(4).toString('hex');

describe('lint rules of issue 22', () => {
  it('refuses a role compared outside src/server/policies', async () => {
    const code = "export const isBoss = (user: { role: string }) => user.role === 'admin';\n";
    const outside = plant(`src/server/modules/zz-planted-${tag}/planted.service.ts`, code);
    const inside = plant(`src/server/policies/zz-planted-${tag}.ts`, code);
    expect((await messages(outside)).join('\n')).toMatch(/Ask src\/server\/policies/);
    expect(await messages(inside)).toEqual([]);
  }, 120_000);
});
