import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';
import { serverModules, webFeatures } from './scripts/modules.mjs';

// The boundaries are generated from the folders (docs/decisions/047): a new module or feature is inside them from
// the moment its folder exists. Folder names are kebab-case, so they go into the patterns as they are.
const anyOf = (names) => `(${names.join('|')})`;
const FACE = 'Import another module through its index.ts (its public face), not its files.';
const TABLES =
  "Another module's tables are its own: reach its data through its index.ts (ports) or its events. " +
  "Only a module's schema.ts may import another's schema.ts (for a foreign key).";

/** What web/ may not import: server/, and a feature's files from outside the feature (only its index.ts). */
const webImportPatterns = [
  { group: ['**/server/**', '../server/*'], message: 'web/ never imports server/' },
  { regex: '(^|/)features/[a-z-]+/(?!index\\.ts$)', message: 'Import a feature through its index.ts (its public face), not its files.' },
];

/** From one feature into another ("../<other>/<file>", "../../<other>/<file>" from a subfolder). */
const featureImportPatterns = [
  ...webImportPatterns,
  {
    regex: `^(\\.\\./)+${anyOf(webFeatures())}/(?!index\\.ts$)`,
    message: 'Import another feature through its index.ts (its public face), not its files.',
  },
];

/**
 * What server code may not import: another module's files but its index.ts, and (unless `tables` is allowed) its
 * schema.ts. Tests are exempt (a module's tests read its internals).
 */
const serverImportPatterns = ({ tables }) => {
  const modules = anyOf(serverModules());
  return [
    { regex: `^(\\.\\./)+(modules/)?${modules}/(?!(index|schema)\\.ts$)`, message: FACE },
    { regex: '^\\./modules/[a-z-]+/(?!(index|schema)\\.ts$)', message: FACE },
    ...(tables
      ? []
      : [
          { regex: `^(\\.\\./)+(modules/)?${modules}/schema\\.ts$`, message: TABLES },
          { regex: '^\\./modules/[a-z-]+/schema\\.ts$', message: TABLES },
        ]),
  ];
};

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
    files: ['web/features/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: featureImportPatterns }] },
  },
  {
    // A server module's public face is its index.ts (docs/decisions/016, 047): another module, the app and the
    // platform never reach into its files. The platform's few reads of module tables (the signed-in person, file
    // access, notices, presence) are counted, and may only shrink, by server/architecture.test.ts.
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: serverImportPatterns({ tables: true }) }] },
  },
  {
    // Another module's tables are its own (ADR 049): a module joins their read models and calls their ports.
    files: ['server/modules/**/*.ts'],
    ignores: ['server/**/*.test.ts', 'server/modules/*/schema.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: serverImportPatterns({ tables: false }) }] },
  },
  {
    // A foreign key names another module's table; the database layer (client, seed, factories) and the test
    // helpers (which build whole worlds of rows) know them all.
    files: ['server/modules/*/schema.ts', 'server/platform/schema.ts', 'server/db/**/*.ts', 'server/test/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: serverImportPatterns({ tables: true }) }] },
  },
  {
    // Size bounds (docs/decisions/047): a file over 400 lines holds more than one thing. Raw lines, so that
    // neither comments nor blank lines hide a second thing.
    files: ['server/modules/**/*.ts', 'web/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // A function the size of a screen or two does one thing; server code is held tighter than a component, whose
    // markup takes lines. Lines of code: comments that say why are not counted against a function.
    files: ['server/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/test/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    files: ['web/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    // Where an order stands is named once (contract/order-states.ts) for the server and the web; the order and
    // payment screens ask those names rather than compare an order's status (ADR 039, 047).
    files: ['web/features/orders/**/*.{ts,tsx}', 'web/features/payments/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "BinaryExpression[operator=/^[!=]==$/][left.property.name='status'][right.value=/^(awaiting_payment|in_progress|delivered|completed|cancelled|disputed)$/]",
          message: "Ask contract/order-states.ts (isOpenPaid, isSettled, …) where an order stands.",
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
