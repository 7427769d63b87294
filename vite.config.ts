/**
 * The dashboard build: web/ → dist/ (served by server/app.ts). In development, `npm run
 * dev:web` serves web/ with hot reload and proxies /bff and /api to a running server
 * (ZONEDECK_URL, default http://127.0.0.1:8080).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const target = process.env.ZONEDECK_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline module-preload polyfill: the CSP allows no inline script.
    modulePreload: { polyfill: false },
    // The sheets live beside their components (web/ui, web/features/*) but ship as one file, each
    // after the sheets of the modules it imports, whatever page is opened first; split per page,
    // the cascade would follow the order in which the pages happened to load.
    cssCodeSplit: false,
  },
  server: {
    proxy: { '/bff': target, '/api': target },
    // web/ imports the shared rules in server/core.
    fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] },
  },
});
