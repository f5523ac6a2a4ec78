import { defineConfig } from 'vitest/config';

// graphql 16 ships both ESM and CJS; without this alias Vite loads the ESM copy for our sources while
// Pothos and yoga load the CJS one, and GraphQL refuses a schema "from another module or realm".
export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  // JOBS=off: no background workers (builds, monitoring, webhooks) unless a test turns them on, as
  // test/jobs does; the rest of the suite keeps the state it sets up and asks no question in the background.
  test: { include: ['test/**/*.test.ts'], globalSetup: ['test/support/build-portal.ts'], testTimeout: 30000, hookTimeout: 60000, env: { JOBS: 'off' } },
});
