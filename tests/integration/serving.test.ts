// The client served like a production site, on a real production build over real HTTP:
// hashed assets cached for a year, index.html revalidated on every load (also when it
// answers a client route such as /inventory), brotli/gzip copies written by the build and
// chosen by Accept-Encoding, API JSON of 1 KB or more compressed, robots.txt served.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { buildClientForTests } from '../helpers/e2e-build.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent, before any decoding. */
  raw: Buffer;
  /** The body after undoing Content-Encoding. */
  body: Buffer;
}

/** A GET that shows the response as sent (fetch would decode it and hide the encoding). */
function get(base: string, urlPath: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(urlPath, base), { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        try {
          const raw = Buffer.concat(chunks);
          const encoding = raw.length ? res.headers['content-encoding'] : undefined; // a 304 has no body
          const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body });
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('serving the client and the API like production', () => {
  let server: TestServer;
  let clientDir: string;
  let indexHtml: Buffer;
  let entryScript: string;
  let manager: TestAccount;

  beforeAll(async () => {
    clientDir = await buildClientForTests();
    indexHtml = readFileSync(path.join(clientDir, 'index.html'));
    entryScript = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(indexHtml.toString('utf8'))![1]!;
    server = await startTestServer({ name: 'pglite' }, { context: { clientDir } });
    manager = await accountWithRole(server, 'manager', 'Serving Manager');
  }, 180_000);
  afterAll(() => server?.close());

  it('the build writes a brotli and a gzip copy of each script, stylesheet and index.html', () => {
    const assets = readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8');
    const files = Object.values(JSON.parse(assets) as Record<string, { file: string; css?: string[] }>).flatMap((c) => [
      c.file,
      ...(c.css ?? []),
    ]);
    for (const file of [...new Set(files)].concat('index.html')) {
      const original = readFileSync(path.join(clientDir, file));
      const br = readFileSync(path.join(clientDir, `${file}.br`));
      expect(brotliDecompressSync(br).equals(original), `${file}.br`).toBe(true);
      expect(gunzipSync(readFileSync(path.join(clientDir, `${file}.gz`))).equals(original), `${file}.gz`).toBe(true);
    }
  });

  it('sends a hashed asset with a year-long immutable cache, compressed by Accept-Encoding', async () => {
    const original = readFileSync(path.join(clientDir, entryScript));
    const br = await get(server.url, entryScript, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.raw.length).toBeLessThan(original.length / 2);
    expect(br.body.equals(original)).toBe(true);

    const gzip = await get(server.url, entryScript, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe(IMMUTABLE);
    expect(gzip.body.equals(original)).toBe(true);

    const plain = await get(server.url, entryScript);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
    expect(plain.raw.equals(original)).toBe(true);
  });

  it('sends index.html with no-cache for /, /index.html and client routes, compressed, revalidated by ETag', async () => {
    for (const route of ['/', '/index.html', '/inventory', '/inventory/category/some-category', '/dashboard?tab=1']) {
      const res = await get(server.url, route, { 'accept-encoding': 'br, gzip' });
      expect(res.status, route).toBe(200);
      expect(res.headers['content-type'], route).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(res.headers['content-encoding'], route).toBe('br');
      expect(res.headers.vary, route).toMatch(/accept-encoding/i);
      expect(res.body.equals(indexHtml), route).toBe(true);

      const again = await get(server.url, route, {
        'accept-encoding': 'br, gzip',
        'if-none-match': String(res.headers.etag),
      });
      expect(again.status, `${route} revalidated`).toBe(304);
    }
    const gzip = await get(server.url, '/inventory', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.equals(indexHtml)).toBe(true);
    const plain = await get(server.url, '/inventory');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.raw.equals(indexHtml)).toBe(true);
  });

  it('inlines the theme script into index.html and allows exactly it by hash in the Content-Security-Policy', async () => {
    const html = indexHtml.toString('utf8');
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body]) => body!);
    expect(inline).toHaveLength(1);
    expect(inline[0]).toContain('document.documentElement.classList.add(theme)');
    expect(html).not.toContain('theme-init.js'); // no render-blocking request of its own
    const res = await get(server.url, '/inventory');
    const scriptSrc = String(res.headers['content-security-policy'])
      .split(';')
      .find((d) => d.trim().startsWith('script-src'))!;
    const hash = createHash('sha256').update(inline[0]!, 'utf8').digest('base64');
    expect(scriptSrc).toContain(`'sha256-${hash}'`);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  });

  it('carries the loading screen in index.html, so a phone shows it before any script has arrived', async () => {
    const res = await get(server.url, '/dashboard');
    const root = /<div id="root">([\s\S]*?)<\/div>\s*<\/body>/.exec(res.body.toString('utf8'))?.[1] ?? '';
    expect(root).toContain('class="truck-loader truck-loader-full" role="status"');
    expect(root).toContain('class="truck-part truck-body"');
    expect(root).toContain('<span class="truck-label">Loading...</span>');
  });

  it('answers a missing hashed asset with 404, not with the page', async () => {
    const res = await get(server.url, '/assets/index-gone1234.js', { 'accept-encoding': 'br' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).not.toMatch(/text\/html/);
  });

  it('serves robots.txt, revalidated on each use', async () => {
    const res = await get(server.url, '/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body.toString('utf8')).toMatch(/^User-agent: \*$/m);
    expect(res.body.toString('utf8')).toMatch(/^Disallow: \/api\/$/m);
  });

  it('serves the service worker and the web app manifest with no-cache, so a new build is seen at once', async () => {
    expect(indexHtml.toString('utf8')).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    const sw = await get(server.url, '/sw.js', { 'accept-encoding': 'br, gzip' });
    expect(sw.status).toBe(200);
    expect(sw.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.body.equals(readFileSync(path.join(clientDir, 'sw.js')))).toBe(true);
    expect(sw.body.toString('utf8')).toContain('index.html'); // the shell is precached

    const res = await get(server.url, '/manifest.webmanifest', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const manifest = JSON.parse(res.body.toString('utf8')) as {
      name: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest.name).toBe('Stockroom');
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of manifest.icons) {
      const png = await get(server.url, icon.src);
      expect(png.status, icon.src).toBe(200);
      expect(png.headers['content-type'], icon.src).toBe('image/png');
    }
  });

  it('compresses a large API response by Accept-Encoding and leaves small ones alone', async () => {
    const category = await server.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: 'Serving shelf' },
    });
    expect(category.status).toBe(201);
    for (let i = 0; i < 12; i++) {
      const created = await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: {
          name: `Serving item ${i}`,
          description: 'An item with enough text that the list runs well past a kilobyte',
          sku: `SRV-${i}`,
          category_id: category.body.id,
          quantity: 10 + i,
          price: 9.5,
          threshold: 2,
        },
      });
      expect(created.status).toBe(201);
    }
    const auth = { authorization: `Bearer ${manager.idToken}` };
    const plain = await get(server.url, '/api/inventory', auth);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.length).toBeGreaterThan(1024);
    const items = JSON.parse(plain.body.toString('utf8'));
    expect(items).toHaveLength(12);

    for (const encoding of ['br', 'gzip'] as const) {
      const res = await get(server.url, '/api/inventory', { ...auth, 'accept-encoding': encoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.raw.length).toBeLessThan(plain.raw.length / 2);
      expect(JSON.parse(res.body.toString('utf8'))).toEqual(items);
    }

    const small = await get(server.url, '/api/client-config', { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.raw.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
