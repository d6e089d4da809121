// Vite builds the React client into dist/client; in dev it proxies /api to the server.
// The manifest lets the bundle-size test measure each route's initial JavaScript.
// Every text file of the build also gets .br and .gz copies, which the server sends by
// Accept-Encoding (server/http/static-client.ts): compressed once at the highest settings,
// never per request.
// The PWA plugin writes the web app manifest and a generated Workbox service
// worker (sw.js): the build's files precached, API GETs cached network-first, a new
// version waiting for the user's "Reload" (registered from the signed-in shell, see
// client/offline/service-worker.ts). docs/stocktake-and-offline.md, "Offline", says why generateSW.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { LOADING_SCREEN_HTML } from './client/components/truck-scene.js';

const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest|map|wasm)$/;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Writes <file>.br and <file>.gz beside each compressible output file (public/ ones too). */
function precompress(): Plugin {
  let outDir = '';
  let writes = true;
  return {
    name: 'stockroom-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      writes = config.build.write;
    },
    // After every other plugin's output (the PWA plugin's sw.js and manifest) is on disk.
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (!writes) return; // an in-memory build (tools inspecting the bundle): nothing on disk
        const files = (await filesUnder(outDir)).filter(
          (f) => COMPRESSIBLE.test(f) && !f.includes(`${path.sep}.vite${path.sep}`),
        );
        await Promise.all(
          files.map(async (file) => {
            const source = await readFile(file);
            const [br, gzipped] = await Promise.all([
              brotli(source, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                  [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
                },
              }),
              gz(source, { level: constants.Z_BEST_COMPRESSION }),
            ]);
            // A copy no smaller than its original is not written: the original is sent instead.
            if (br.length < source.length) await writeFile(`${file}.br`, br);
            if (gzipped.length < source.length) await writeFile(`${file}.gz`, gzipped);
          }),
        );
      },
    },
  };
}

/**
 * Puts the theme script (client/theme-init.js) into index.html itself: as a file it was a
 * render-blocking request of its own before a phone's first paint. The server allows it by
 * its hash (server/http/inline-script-hashes.ts). The loading screen goes in too
 * (client/components/truck-scene.ts), so it shows before any script has arrived.
 */
function inlineStartupHtml(): Plugin {
  return {
    name: 'stockroom-inline-startup',
    transformIndexHtml: { order: 'pre', handler: inlineStartup },
  };
}

async function inlineStartup(html: string): Promise<string> {
  // The loading screen is in the page itself: shown once the page and its stylesheet are in,
  // before the app's script has arrived and run (React replaces it when it mounts).
  html = html.replace('<div id="root"></div>', () => `<div id="root">${LOADING_SCREEN_HTML}</div>`);
  const source = await readFile(path.resolve('client/theme-init.js'), 'utf8');
  // Its comments stay in the source file.
  const script = source
    .split('\n')
    .filter((line) => !/^\s*(?:\/\/|\/\* global)/.test(line))
    .join('\n')
    .trim();
  return html.replace('<script src="/theme-init.js"></script>', () => `<script>${script}</script>`);
}

/** Cache name of the API GETs the user saw; client/offline/service-worker.ts clears it on sign-out. */
const API_CACHE = 'api-get';

const pwa = VitePWA({
  strategies: 'generateSW',
  registerType: 'prompt',
  // The landing page stays as light as it was: the signed-in shell registers the worker.
  injectRegister: false,
  manifest: {
    name: 'Stockroom',
    short_name: 'Stockroom',
    description: 'Live inventory for store teams, also with no signal',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#4f46e5',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // Every script, style and the page (the plugin adds the manifest's icons): any screen
    // opens offline. The scanner's decoder (.wasm, ~1 MB) is cached when first used instead;
    // the .br/.gz copies are the server's business.
    globPatterns: ['**/*.{js,css,html,svg,txt}'],
    globIgnores: ['**/*.br', '**/*.gz', '.vite/**'],
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/api\//],
    inlineWorkboxRuntime: true,
    cleanupOutdatedCaches: true,
    // The first install takes over the open page at once, so what it loads next is cached;
    // later versions wait for "Reload" (skipWaiting stays off).
    clientsClaim: true,
    skipWaiting: false,
    runtimeCaching: [
      {
        // The API reads the user saw: fresh when the network answers within 3 s, else the last
        // copy. Writes are never cached (only GETs match), nor the session, the feed, the health
        // check, the API reference page's files (/api/docs, 2 MB of Swagger UI) or CSV downloads
        // (files the user saved, possibly large).
        urlPattern: ({ url, request }) =>
          request.method === 'GET' &&
          url.origin === self.location.origin &&
          url.pathname.startsWith('/api/') &&
          !/^\/api\/(ws|session|health|docs)/.test(url.pathname) &&
          !url.pathname.endsWith('.csv'),
        handler: 'NetworkFirst',
        options: {
          cacheName: API_CACHE,
          networkTimeoutSeconds: 3,
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 300, maxAgeSeconds: 14 * 24 * 3600 },
          // The token changes hourly; the URL alone names the data (the cache is per browser
          // profile and cleared on sign-out).
          matchOptions: { ignoreVary: true },
          plugins: [
            {
              // A copy from the cache given instead of the network's answer says so
              // (SAVED_COPY_HEADER in client/lib/api-client.ts): the screen reads again soon,
              // where it would otherwise show old stock until something changed. The function
              // is copied into the worker as text: it may use nothing from this file.
              cachedResponseWillBeUsed: async ({ cachedResponse }) => {
                if (!cachedResponse) return cachedResponse;
                const headers = new Headers(cachedResponse.headers);
                headers.set('x-stockroom-saved-copy', '1');
                return new Response(cachedResponse.body, {
                  status: cachedResponse.status,
                  statusText: cachedResponse.statusText,
                  headers,
                });
              },
            },
          ],
        },
      },
      {
        urlPattern: ({ url }) =>
          url.origin === self.location.origin && url.pathname.startsWith('/assets/') && url.pathname.endsWith('.wasm'),
        handler: 'CacheFirst',
        options: { cacheName: 'wasm', expiration: { maxEntries: 4 } },
      },
    ],
  },
});

// One chunk for what the signed-in screens share. Left to itself the bundler gave each
// shared module its own small file (about 30 for the Category page), and a phone on a
// plain HTTP/1.1 connection fetches six at a time, each a round trip: most of the wait
// before the first signed-in screen. Not captured: what the entry chunk or the landing
// page load statically (the landing page must stay light), and the heavy features that
// load only when used (scanner, labels, import, the Firebase SDK).
const LAZY_HEAVY =
  /client[\\/]features[\\/](?:scanner|labels|import|auth[\\/]firebase\.)|\.worker\.|node_modules[\\/](?!xstate|@xstate|immer|idb[\\/]|use-sync-external-store|use-isomorphic-layout-effect)/;
const LANDING = /client[\\/]app[\\/]landing-route\.tsx$/;

function signedInCore(): (
  id: string,
  ctx: { getModuleInfo(id: string): { isEntry: boolean; importers: string[] } | null },
) => string | null {
  const initial = new Map<string, boolean>();
  /** Whether the entry or the landing page imports the module, directly or through others. */
  const loadedFirst = (
    id: string,
    getInfo: (id: string) => { isEntry: boolean; importers: string[] } | null,
  ): boolean => {
    const known = initial.get(id);
    if (known !== undefined) return known;
    initial.set(id, false); // import cycles: not proven yet
    const info = getInfo(id);
    const found =
      !!info && (info.isEntry || LANDING.test(id) || info.importers.some((importer) => loadedFirst(importer, getInfo)));
    initial.set(id, found);
    return found;
  };
  return (id, ctx) => {
    if (LAZY_HEAVY.test(id) || !/[\\/](?:client|shared|node_modules)[\\/]/.test(id)) return null;
    return loadedFirst(id, (m) => ctx.getModuleInfo(m)) ? null : 'signed-in-core';
  };
}

export default defineConfig({
  root: '.',
  publicDir: 'client/public',
  // precompress() last: it also compresses sw.js and manifest.webmanifest written by the PWA plugin.
  plugins: [react(), inlineStartupHtml(), pwa, precompress()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: signedInCore(),
              debugName: 'signed-in-core',
              minShareCount: 2,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', ws: true },
    },
  },
});
