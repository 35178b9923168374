// Lint: TypeScript rules, React hooks, and the import direction of DESIGN.md section 3:
// client -> shared, server -> shared, shared -> nothing; modules reach each other through services.
import fs from 'node:fs';
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
  ...clientZones(),
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
    // One authorisation policy (issue 22 item 1): who may do what is written in src/server/policies and
    // asked with can()/authorize(); a role compared anywhere else is a second rule that drifts.
    files: ['src/server/**/*.ts'],
    ignores: [
      'src/server/policies/**',
      'src/server/**/*.test.ts',
      'src/server/test/**',
      // Until the money helper moves these two onto policy.money (its split of checkout.ts): remove then.
      'src/server/modules/money/transactions.ts',
      'src/server/modules/money/checkout.ts',
    ],
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
