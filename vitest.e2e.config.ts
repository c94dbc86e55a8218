import { defineConfig } from 'vitest/config';

// End-to-end specs (e2e/**/*.e2e.ts): each file boots the real server (built web app, in-memory
// PGlite) and drives Debian's Chromium through playwright-core. Run with `npm run test:e2e`.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    // A poll waits for what a click set off: a request, the server's answer and React's render, while two files'
    // servers and Chromiums share two cores. Vitest's 1 s default failed once on a slow machine (sessions.e2e.ts,
    // session 54: a list still showing an ended session). A poll that matches returns at once, so only a failure waits.
    expect: { poll: { timeout: 5_000 } },
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
    // Files in one worker share the imported server modules instead of transforming them again for
    // each file; every file still boots its own server, database and browser.
    isolate: false,
    // Each file's PGlite starts from one migrated per run (server/test/database-templates.ts).
    globalSetup: ['server/test/database-templates.ts'],
  },
});
