import { defineConfig } from 'vitest/config';
import { BrowserFilesFirst } from './test/support/browser-files-first.js';

/** Test files that use vi.mock (a module replaced for the whole file): each runs in a process of its own, so keep them few. */
const MOCKING_FILES = ['test/server/run-operation.test.ts'];

// graphql 16 ships both ESM and CJS; without this alias Vite loads the ESM copy for our sources while
// Pothos and yoga load the CJS one, and GraphQL refuses a schema "from another module or realm".
export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  // JOBS=off: no background workers (builds, monitoring, webhooks) unless a test turns them on, as
  // test/jobs does; the rest of the suite keeps the state it sets up and asks no question in the background.
  test: {
    // build-portal: the pages under test; pglite-template: one migrated PGlite dumped once per run, which
    // each in-memory test database loads instead of running initdb and the migrations again;
    // postgres-template: with DATABASE_URL, one migrated database each test database is copied from.
    // transpiled-copy: the repository with its TypeScript turned into JavaScript once, which the tests
    // that start the server or the admin command as a process run with plain node (spawn-server.ts).
    globalSetup: ['test/support/build-portal.ts', 'test/support/pglite-template.ts', 'test/support/postgres-template.ts', 'test/support/transpiled-copy.ts'],
    // fresh-modules: our own modules evaluated anew for each file (see the projects below).
    // CPU_TIMINGS=<file>: one JSON line per test file with its CPU and wall time; CPU_PROFILE_DIR=<folder>:
    // a V8 CPU profile per test file (README "How long the suite takes").
    setupFiles: ['test/support/fresh-modules.ts', 'test/support/cpu-timing.ts', 'test/support/cpu-profile.ts'],
    // Three files at a time on two cores (vitest's default is one fewer than the cores): much of a
    // file's time is spent waiting (DNS timeouts it provokes, child servers, Chromium), which the other
    // files' work fills. Each file still has its own database and free ports. Measured on a quiet
    // two-core machine: 318 s with two, 304 s with three, 303 s with four (README). On PostgreSQL two:
    // the files running at once share the server's 100 connections (a service's pool, its job
    // workers, three instances in one file), and three files at once ran out ("too many clients").
    maxWorkers: process.env.DATABASE_URL ? 2 : 3,
    // The browser files first, whatever vitest remembers of the last run (test/support/browser-files-first.ts).
    sequence: { sequencer: BrowserFilesFirst },
    testTimeout: 30000,
    hookTimeout: 60000,
    env: { JOBS: 'off' },
    // A worker process runs file after file (isolate: false): the packages under node_modules (graphql,
    // Pothos, PGlite, Stripe ...) are loaded once per worker instead of once per file, about 3 s of CPU
    // a file. Our own modules are still evaluated anew for each file (test/support/fresh-modules.ts), so
    // no file sees another's module state. Files that replace a module with vi.mock run isolated, since
    // a mock registered by one file would otherwise stay in place for the next. What a file leaves
    // behind now outlives it: a stopped service must leave no timer or listener holding its database
    // (rate-limiter-flexible's sweep timer did, 250-500 MB of PGlite per file, until its own sweep
    // replaced it; observability/log.ts adds its exit listener once per process).
    projects: [
      { extends: true, test: { name: 'shared', isolate: false, include: ['test/**/*.test.ts'], exclude: [...MOCKING_FILES] } },
      { extends: true, test: { name: 'isolated', isolate: true, include: [...MOCKING_FILES] } },
    ],
  },
});
