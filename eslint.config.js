// Lint: TypeScript rules, React hooks, and the import direction of DESIGN.md section 3:
// client -> shared, server -> shared, shared -> nothing; modules reach each other through services.
import js from '@eslint/js';
import globals from 'globals';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ['error', { patterns }];

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
    files: ['src/client/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['#server/*', '**/server/**'], message: 'The client talks to the server over HTTP only.' },
      ]),
    },
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
);
