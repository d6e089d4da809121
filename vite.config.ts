// Vite builds the React client into dist/client; in dev it proxies /api to the server.
// The manifest lets the bundle-size test measure each route's initial JavaScript.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: '.',
  publicDir: 'client/public',
  plugins: [react()],
  build: { outDir: 'dist/client', emptyOutDir: true, sourcemap: false, manifest: true },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', ws: true },
    },
  },
});
