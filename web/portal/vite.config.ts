import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { join } from 'node:path';
import { gqlDocumentsPlugin } from './gql-documents-plugin.js';

// The portal is served by the account listener at /portal/ (server/serve-portal.ts), built into
// web/portal/dist by scripts/build-portal.ts during `npm install` and `npm start`.
// The manifest (dist/.vite/manifest.json) names the entry chunk and its static imports: what a
// browser fetches before the first page draws, which `npm run bench` weighs (bench/portal-first-load.ts).
export default defineConfig({
  root: import.meta.dirname,
  base: '/portal/',
  plugins: [gqlDocumentsPlugin(join(import.meta.dirname, 'src')), react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, manifest: true, chunkSizeWarningLimit: 400 },
  logLevel: 'warn',
  // `npm run portal:dev`: Vite's dev server beside a running `npm start`, asking its API.
  server: { proxy: { '/graphql': 'http://127.0.0.1:8081', '/auth': 'http://127.0.0.1:8081' } },
});
