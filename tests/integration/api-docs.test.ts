// The API reference: /api/docs is a page people read, not raw JSON; the
// JSON stays at /api/docs/json for tools; both need no sign-in; every file the page loads
// comes from this server (no CDN, so it works offline), under the same Content-Security-
// Policy as the rest of the app (nothing relaxed for it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('API reference at /api/docs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ name: 'pglite' });
  });
  afterAll(() => server?.close());

  it('serves a readable HTML page, without a token, that loads only files of this server', async () => {
    const res = await fetch(`${server.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<title>Stockroom API reference</title>');
    expect(html).toContain('<div id="swagger-ui">');
    const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(files.length).toBeGreaterThan(4);
    for (const file of files) {
      // Same origin, under /api/docs: no CDN, nothing from elsewhere.
      expect(file, file).toMatch(/^\/api\/docs\/static\//);
      const got = await fetch(server.url + file);
      expect([file, got.status]).toEqual([file, 200]);
    }
  });

  it('keeps the OpenAPI document as JSON at /api/docs/json', async () => {
    const res = await server.request('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = res.body as { openapi: string; info: { title: string }; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Stockroom API');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/inventory', '/api/inventory/{id}/adjust', '/api/dashboard']),
    );
    // The reference's own routes are not operations of the API.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/docs'))).toEqual([]);
  });

  it("gives the page the app's own Content-Security-Policy, unrelaxed", async () => {
    const page = await fetch(`${server.url}/api/docs`);
    const app = await fetch(`${server.url}/api/health`);
    const csp = page.headers.get('content-security-policy');
    expect(csp).toBeTruthy();
    expect(csp).toBe(app.headers.get('content-security-policy'));
    expect(csp).not.toContain("'unsafe-eval'");
  });

  it('still asks for a token on the API itself', async () => {
    expect((await server.request('GET', '/api/inventory')).status).toBe(401);
  });
});
