import { defineConfig } from 'vitest/config';

// graphql 16 ships both ESM and CJS; without this alias Vite loads the ESM copy for our sources while
// Pothos and yoga load the CJS one, and GraphQL refuses a schema "from another module or realm".
export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  // JOBS=off: no background workers (builds, monitoring, webhooks) unless a test turns them on, as
  // test/jobs does; the rest of the suite keeps the state it sets up and asks no question in the background.
  test: {
    include: ['test/**/*.test.ts'],
    // build-portal: the pages under test; pglite-template: one migrated PGlite dumped once per run, which
    // each in-memory test database loads instead of running initdb and the migrations again;
    // postgres-template: with DATABASE_URL, one migrated database each test database is copied from.
    globalSetup: ['test/support/build-portal.ts', 'test/support/pglite-template.ts', 'test/support/postgres-template.ts'],
    // CPU_TIMINGS=<file>: one JSON line per test file with its CPU and wall time (README "Tests and CI").
    setupFiles: ['test/support/cpu-timing.ts'],
    // Two files at a time even on two cores (vitest's default is one fewer than the cores): much of a
    // file's time is spent waiting (DNS timeouts it provokes, child servers, Chromium), which the other
    // file's work fills. Each file still runs in its own process with its own database and free ports.
    maxWorkers: 2,
    testTimeout: 30000,
    hookTimeout: 60000,
    env: { JOBS: 'off' },
  },
});
