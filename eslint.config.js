import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';

/** What web/ may not import: server/, and a feature's files from outside the feature (only its index.ts). */
const webImportPatterns = [
  { group: ['**/server/**', '../server/*'], message: 'web/ never imports server/' },
  { regex: '(^|/)features/[a-z-]+/(?!index\\.ts$)', message: 'Import a feature through its index.ts (its public face), not its files.' },
];

export default tseslint.config(
  { ignores: ['build/', 'data/', 'node_modules/', '.react-router/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Every regular expression may see user text: none may backtrack super-linearly (docs/decisions/007).
    // Patterns built at run time with `new RegExp` are checked by a test with the same analyser (scslre).
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: false, ignorePartial: false }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Imports flow one way: web never imports server, contract imports neither. A web feature's public face is its
    // index.ts (docs/decisions/017): from outside web/features/<f>/ nothing reaches into its files.
    files: ['web/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: webImportPatterns }] },
  },
  {
    // From one feature into another: "../<other>/<file>".
    files: ['web/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...webImportPatterns,
            { regex: '^\\.\\./[a-z-]+/(?!index\\.ts$)', message: 'Import another feature through its index.ts (its public face), not its files.' },
          ],
        },
      ],
    },
  },
  {
    // A server module's public face is its index.ts (docs/decisions/016): another module, the app and the
    // platform never reach into its files. Tests may (a module's tests read its internals).
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(modules/)?(admin|auth|chat|docs|favorites|files|health|lookups|payments|people|projects|rates|route-rules|search|seo|services|users)/(?!index\\.ts$)',
              message: "Import another module through its index.ts (its public face), not its files.",
            },
            { regex: '^\\./modules/[a-z-]+/(?!index\\.ts$)', message: 'Import a module through its index.ts (its public face), not its files.' },
          ],
        },
      ],
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/web/**', '**/server/**'], message: 'contract/ imports neither web/ nor server/' }] }],
    },
  },
);
