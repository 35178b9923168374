// The architecture rules of issue 22 fire: a file that breaks one is planted in the tree, linted with the
// project's own configuration, and removed. Each case also lints the same code where it is allowed, so a
// rule that fires everywhere (or a selector that never matches) fails here too.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
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
    // A folder made only for a planted file (features/help) goes too.
    else if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  }
});

// The project's configuration without type information: the rules under test read syntax only, and a
// type-aware program would cost most of a minute.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId.startsWith('no-restricted-') || ruleId.startsWith('house/'),
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

  it('refuses two features that import each other, and lets one depend on the other', async () => {
    // features/account already imports features/auth (its password and username fields).
    const back = plant(
      `src/client/features/auth/zz-planted-${tag}.ts`,
      "export { accountKeys } from '#client/features/account/index.ts';\n",
    );
    const oneWay = plant(
      `src/client/features/help/zz-planted-${tag}.ts`,
      "export { UsernameField } from '#client/features/auth/index.ts';\n",
    );
    expect((await messages(back)).join('\n')).toMatch(/features\/auth and features\/account import each other/);
    expect((await messages(oneWay)).join('\n')).not.toMatch(/import each other/);
  }, 120_000);

  it('npm run cycles fails on a cycle made of type imports alone', () => {
    const dir = `src/server/modules/zz-planted-${tag}`;
    const a = plant(`${dir}/a.ts`, "import type { B } from './b';\nexport type A = { b?: B };\n");
    plant(`${dir}/b.ts`, "import type { A } from './a';\nexport type B = { a?: A };\n");
    const script = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.cycles as string;
    // The script's own flags, with the planted file as the entry instead of the app's.
    const flags = script.split(' ').filter((word) => word.startsWith('-') || /^circular:/.test(word));
    const run = () => execFileSync('npx', ['dpdm', ...flags, a], { cwd: root, stdio: 'pipe' });
    expect(run).toThrow();
  }, 120_000);

  it('refuses drizzle-orm and db/schema in a service, and lets a repository have them', async () => {
    const code =
      "import { eq } from 'drizzle-orm';\nimport { accounts } from '../../db/schema';\nexport const q = [eq, accounts];\n";
    const service = plant(`src/server/modules/zz-planted-${tag}/planted.service.ts`, code);
    const repo = plant(`src/server/modules/zz-planted-${tag}/planted.repo.ts`, code);
    expect((await messages(service)).join('\n')).toMatch(/A service holds no SQL/);
    expect((await messages(repo)).join('\n')).not.toMatch(/A service holds no SQL/);
  }, 120_000);

  it('refuses a file or folder name under src/ that is not kebab-case', async () => {
    const code = 'export const planted = 1;\n';
    const camel = plant(`src/client/lib/zz-planted-${tag}/plantedName.ts`, code);
    const folder = plant(`src/server/lib/zz-planted-${tag}-Planted_Folder/planted.ts`, code);
    const kebab = plant(`src/client/lib/zz-planted-${tag}/planted-name.test.ts`, code);
    expect((await messages(camel)).join('\n')).toMatch(/"plantedName\.ts" .* is not kebab-case/);
    expect((await messages(folder)).join('\n')).toMatch(/"zz-planted-\w+-Planted_Folder" .* is not kebab-case/);
    expect((await messages(kebab)).join('\n')).not.toMatch(/kebab-case/);
  }, 120_000);

  it('refuses a file named as one in another server module, and lets a module name its own files', async () => {
    const code = 'export const planted = 1;\n';
    const twin = plant(`src/server/modules/zz-planted-${tag}/notices.service.ts`, code);
    const nested = plant(`src/server/modules/zz-planted-${tag}/parts/notices.repo.ts`, code);
    const own = plant(`src/server/modules/zz-planted-${tag}/planted-${tag}.service.ts`, code);
    expect((await messages(twin)).join('\n')).toMatch(/modules\/notices also holds a file named notices\.service\.ts/);
    expect((await messages(nested)).join('\n')).toMatch(/modules\/notices also holds a file named notices\.repo\.ts/);
    expect((await messages(own)).join('\n')).not.toMatch(/also holds a file named/);
  }, 120_000);
});
