import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The portal is served by the account listener at /portal/ (server/serve-portal.ts), built into
// web/portal/dist by scripts/build-portal.ts during `npm install` and `npm start`.
export default defineConfig({
  root: import.meta.dirname,
  base: '/portal/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
  logLevel: 'warn',
  // `npm run portal:dev`: Vite's dev server beside a running `npm start`, asking its API.
  server: { proxy: { '/graphql': 'http://127.0.0.1:8081', '/auth': 'http://127.0.0.1:8081' } },
});
