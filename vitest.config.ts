import { defineConfig } from 'vitest/config';

// graphql 16 ships both ESM and CJS; without this alias Vite loads the ESM copy for our sources while
// Pothos and yoga load the CJS one, and GraphQL refuses a schema "from another module or realm".
export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: { include: ['test/**/*.test.ts'], testTimeout: 30000, hookTimeout: 60000 },
});
