// Lint: TypeScript rules, React hooks, and the import direction of DESIGN.md section 3:
// client -> shared, server -> shared, shared -> nothing; modules reach each other through services.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ['error', { patterns }];

/**
 * The client's layers (decision 0920): app and main.tsx -> sections -> features -> components -> lib
 * -> shared. A layer imports only the layers after it; a feature reaches another feature only through
 * that feature's index.ts; a relative import stays inside its own folder tree (../ only from a
 * subfolder back to its area), so every import across areas is an alias the patterns see.
 * no-restricted-imports does not look at import(), so the same patterns also go to no-restricted-syntax.
 */
function clientZones() {
  const server = { regex: '^#server/|/server/', message: 'The client talks to the server over HTTP only.' };
  const layer = (name, reason) => ({ regex: `^#client/${name}`, message: reason });
  const app = layer('(app/|main\\.tsx)', 'Only main.tsx and app/ compose the app; nothing imports them.');
  const sections = layer('sections/', 'sections/ holds the lazy route entries; only app/ loads them.');
  const features = layer('features/', 'components/ and lib/ are shared by all features and import none.');
  const components = layer('components/', 'lib/ holds no UI: it imports no component.');
  const otherFeature = (area) => ({
    regex: `^#client/features/(?!${area}/)[^/]+/(?!index\\.ts$)`,
    message: 'Another feature is reached through its index.ts (its public entry), not its internals.',
  });
  const upTwo = { regex: '^\\.\\./\\.\\./', message: 'Across folders, import with the #client/ alias.' };
  const upOne = { regex: '^\\.\\./', message: 'Across folders, import with the #client/ alias.' };
  const zone = (files, patterns) => ({
    files,
    rules: {
      'no-restricted-imports': restrict([server, ...patterns]),
      'no-restricted-syntax': [
        'error',
        ...patterns.map((pattern) => ({
          // esquery regexes cannot hold a slash, so it is written as \x2F.
          selector: `ImportExpression[source.value=/${pattern.regex.replaceAll('/', '\\x2F')}/]`,
          message: pattern.message,
        })),
      ],
    },
  });
  // Each file's options come from the last zone that matches it, so each zone lists all its patterns.
  const nested = (dir, patterns) => [
    zone([`${dir}/**`], [...patterns, upTwo]),
    zone([`${dir}/*`], [...patterns, upOne]),
  ];
  const featureAreas = fs
    .readdirSync(new URL('src/client/features/', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return [
    zone(['src/client/**'], [upTwo]),
    zone(['src/client/*'], [upOne]),
    ...nested('src/client/app', []),
    ...nested('src/client/sections/*', [
      app,
      layer('sections/', 'A section entry loads features, not another section.'),
    ]),
    ...featureAreas.flatMap((area) => nested(`src/client/features/${area}`, [app, sections, otherFeature(area)])),
    ...nested('src/client/components', [app, sections, features]),
    ...nested('src/client/lib', [app, sections, features, components]),
  ];
}

/**
 * Two features never import each other, whatever the files (issue 22 item 3): one depends on the other,
 * or what both need moves down to components/ or lib/. A file-level cycle is dpdm's (npm run cycles);
 * this sees the folder-level one, where auth/api.ts -> account and account/cards.tsx -> auth close no
 * file cycle. Each lint run reads every feature's imports once from disk.
 */
const FEATURE_IMPORT = /['"]#client\/features\/([^/'"]+)\//g;
let featureGraph = null;
function featureImports() {
  if (featureGraph) return featureGraph;
  featureGraph = new Map();
  const root = new URL('src/client/features/', import.meta.url);
  for (const area of fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const targets = new Set();
    const files = fs.readdirSync(new URL(`${area.name}/`, root), { recursive: true, withFileTypes: true });
    for (const file of files.filter((f) => f.isFile() && /\.tsx?$/.test(f.name))) {
      const text = fs.readFileSync(`${file.parentPath}/${file.name}`, 'utf8');
      for (const [, target] of text.matchAll(FEATURE_IMPORT)) if (target !== area.name) targets.add(target);
    }
    featureGraph.set(area.name, targets);
  }
  return featureGraph;
}
const featuresOneWay = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const own = /src\/client\/features\/([^/]+)\//.exec(context.filename.replaceAll('\\', '/'))?.[1];
    if (!own) return {};
    const check = (node) => {
      const source = node.source?.type === 'Literal' ? String(node.source.value) : '';
      const other = /^#client\/features\/([^/]+)\//.exec(source)?.[1];
      if (other && other !== own && featureImports().get(other)?.has(own)) {
        context.report({
          node,
          message: `features/${own} and features/${other} import each other: let one depend on the other, or move what both need to components/ or lib/.`,
        });
      }
    };
    return {
      ImportDeclaration: check,
      ImportExpression: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
    };
  },
};

/**
 * File names (issue 22 item 7; DESIGN.md section 3, "kebab-case files"): every folder and file under src/
 * is kebab-case, with dot-separated kebab-case parts for its role (`profile-edit.service.ts`,
 * `share-bar.test.ts`); and no two server modules hold a file of the same name, so a name found in an
 * editor, a stack trace or a search names one file (two `verification.service.ts` and three `answers.ts`
 * were the case). The second reads the modules' names from disk once per lint run.
 */
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/;
const ROOT = fileURLToPath(new URL('.', import.meta.url));
let moduleFiles = null;
function moduleFileNames() {
  if (moduleFiles) return moduleFiles;
  moduleFiles = new Map();
  const root = new URL('src/server/modules/', import.meta.url);
  for (const area of fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const files = fs.readdirSync(new URL(`${area.name}/`, root), { recursive: true, withFileTypes: true });
    for (const file of files.filter((f) => f.isFile())) {
      if (!moduleFiles.has(file.name)) moduleFiles.set(file.name, new Set());
      moduleFiles.get(file.name).add(area.name);
    }
  }
  return moduleFiles;
}
const fileNames = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = path.relative(ROOT, context.filename).replaceAll('\\', '/');
    if (!file.startsWith('src/')) return {};
    return {
      Program(node) {
        for (const part of file.split('/').slice(1)) {
          if (!KEBAB.test(part)) {
            context.report({
              node,
              message: `"${part}" (${file}) is not kebab-case: lower-case words joined by hyphens, roles after dots.`,
            });
          }
        }
        const [, area, name] = /^src\/server\/modules\/([^/]+)\/(?:.+\/)?([^/]+)$/.exec(file) ?? [];
        if (!area) return;
        const others = [...(moduleFileNames().get(name) ?? [])].filter((other) => other !== area);
        if (others.length) {
          context.report({
            node,
            message: `modules/${others.join(', modules/')} also holds a file named ${name}: name it after what it does here (modules/${area}).`,
          });
        }
      },
    };
  },
};

/** The house's own rules. */
const house = { rules: { 'features-one-way': featuresOneWay, 'file-names': fileNames } };

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-results/**', 'src/server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Type-aware rules: a promise nobody awaits hides its failure.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'src/shared/views/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A component's autoFocus prop is its own business; the DOM attribute is checked where it lands.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['#server/*', '#client/*', '**/server/**', '**/client/**'],
          message: 'shared/ imports neither server nor client.',
        },
      ]),
    },
  },
  {
    files: ['src/**/*.{ts,tsx,js,mjs}'],
    plugins: { house },
    rules: { 'house/file-names': 'error' },
  },
  ...clientZones(),
  {
    files: ['src/client/features/**/*.{ts,tsx}'],
    plugins: { house },
    rules: { 'house/features-one-way': 'error' },
  },
  {
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['#client/*', '**/client/**'], message: 'The server does not import client code.' },
        {
          group: ['../*/*.repo', '../../modules/*/*.repo'],
          message: 'Call another module through its service, not its repository.',
        },
      ]),
    },
  },
  {
    // Services hold no SQL (issue 22 item 2; fastify/demo's repositories): queries live in *.repo.ts.
    files: ['src/server/**/*.service.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['#client/*', '**/client/**'], message: 'The server does not import client code.' },
        {
          group: ['../*/*.repo', '../../modules/*/*.repo'],
          message: 'Call another module through its service, not its repository.',
        },
        {
          group: ['drizzle-orm', 'drizzle-orm/*', '**/db/schema', '#server/db/schema'],
          message: 'A service holds no SQL: put the query in its *.repo.ts.',
        },
      ]),
    },
  },
  {
    // One authorisation policy (issue 22 item 1): who may do what is written in src/server/policies and
    // asked with can()/authorize(); a role compared anywhere else is a second rule that drifts.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/policies/**', 'src/server/**/*.test.ts', 'src/server/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "BinaryExpression[left.value='admin']",
          "BinaryExpression[right.value='admin']",
          "BinaryExpression[left.value='advertiser']",
          "BinaryExpression[right.value='advertiser']",
          "BinaryExpression[left.property.name='role']",
          "BinaryExpression[right.property.name='role']",
          "BinaryExpression[left.name='role']",
          "BinaryExpression[right.name='role']",
          "SwitchStatement[discriminant.property.name='role']",
          "CallExpression[callee.property.name='includes'] > MemberExpression.arguments[property.name='role']",
        ].map((selector) => ({
          selector,
          message: 'Ask src/server/policies (can / authorize) instead of comparing roles here.',
        })),
      ],
    },
  },
);
