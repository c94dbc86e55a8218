import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { bootScript } from './vite.boot.ts';

/**
 * The API fuzz suite runs first: it is the longest file by far (200–320 s on a slow 2-core machine, a fifth of
 * the phase's work), and Vitest's own order (by project, then by the last run's durations, or by size in a fresh
 * clone as in CI) can leave it for the end, where the other worker would wait for it. Longest first, the rest
 * share out around it.
 */
class FuzzFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const fuzz = (file: TestSpecification) => file.moduleId.endsWith('/server/api-fuzz.db.test.ts');
    return [...sorted.filter(fuzz), ...sorted.filter((file) => !fuzz(file))];
  }
}

/**
 * The database test files whose subject is the database engine itself, which run on both when there are both: the
 * drivers and statements, durability through a kill -9 and a shutdown, transactions, locks and notifications, the
 * ledger the database enforces, and the search's extension. ADR 094.
 */
const ON_BOTH_DATABASES = [
  'server/db/**/*.db.test.ts',
  'server/platform/{crash,dispatcher,leases,tx,settings}.db.test.ts',
  'server/modules/payments/{crash,provider-crash,payments}.db.test.ts',
  'server/{shutdown,jobs,money.property}.db.test.ts',
  'server/modules/ledger/*.db.test.ts',
  'server/modules/search/*.db.test.ts',
];
/** Every database test file on both databases, as `npm test` ran them until session 72 (its unit phase some 4 minutes longer). */
const BOTH = process.env.TEST_BOTH_DATABASES === '1';

/**
 * The unit files that need modules of their own, isolated from the files before them in a worker: those that replace
 * modules (`vi.mock` and its kin act on a fresh import only), and the test of promise hooks, which any store another
 * file enabled would turn on.
 */
const OWN_MODULES = [
  ...['server', 'web', 'contract', 'bench'].flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((file) => path.join(dir, file))
      .filter((file) => /(?<!\.db)\.test\.tsx?$/.test(file) && /\bvi\.(mock|doMock|unmock|resetModules)\(/.test(readFileSync(file, 'utf8'))),
  ),
  'server/lib/scoped-storage.test.ts',
];

// Unit tests run once. Database tests (*.db.test.ts) run on PGlite without DATABASE_URL; with it (CI) on PostgreSQL,
// the files of ON_BOTH_DATABASES on PGlite too. Each test file in a database of its own (server/test/database.ts).
const dbProject = (name: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    include: name === 'pglite' && process.env.DATABASE_URL && !BOTH ? ON_BOTH_DATABASES : ['server/**/*.db.test.ts'],
    // The API fuzz suite (ADR 012) runs once a run: on PostgreSQL when there is one (CI), else on PGlite.
    exclude: name === 'pglite' && process.env.DATABASE_URL ? ['server/api-fuzz.db.test.ts'] : [],
    env: { TEST_DB: name },
    // The files of a worker share the imported modules instead of importing the app again for each file: the unit
    // phase took 487 s instead of 551 s on 2 cores (session 42, both projects, shuffled files). Each file still builds
    // its own app on its own database; the modules' own state is caches keyed by database and statements built once,
    // and a spy is restored by the file that set it.
    isolate: false,
    // The migrated database made once per run, copied by each test file (server/test/database-templates.ts).
    globalSetup: ['server/test/database-templates.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  // The server's document rendering imports the boot script's text (web/lib/boot-on-intent.ts).
  plugins: [bootScript()],
  test: {
    environment: 'node',
    // Vitest's default is one worker fewer than the cores: one worker on the 2-core machines this runs on. Two
    // keep `npm test` shorter (the database tests wait on PostgreSQL as much as they compute).
    maxWorkers: 2,
    sequence: { sequencer: FuzzFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{server,web,contract,bench}/**/*.test.{ts,tsx}'],
          exclude: ['**/*.db.test.ts', 'node_modules/**', ...OWN_MODULES],
          // As the database files: the files of a worker share the imported modules (the unit project took 78 s
          // instead of 147 s alone on 2 cores, session 72).
          isolate: false,
        },
      },
      { extends: true, test: { name: 'unit-own-modules', include: OWN_MODULES } },
      dbProject('pglite'),
      ...(process.env.DATABASE_URL ? [dbProject('postgres')] : []),
    ],
  },
});
