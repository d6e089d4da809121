// The real server for end-to-end tests: built client, fresh in-memory store, the test
// emulator, on a port chosen up front so the WebSocket feed's Origin check allows it.
import { createServer } from 'node:net';
import { buildApp } from '../../server/app.js';
import { exposeEmulatorToFirebaseAdmin } from '../../server/config.js';
import { createTokenVerifier } from '../../server/auth/verify-token.js';
import { openTestStore } from './backends.js';
import { testConfig } from './test-server.js';
import { buildClientForTests } from './e2e-build.js';

export interface E2EServer {
  url: string;
  /** JSON API call with a bearer token. */
  api<T = any>(method: string, path: string, token: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `clientDir`: serve a copy of the build instead (a test that changes files, e.g. a new sw.js).
 * `env`: settings on top of the test config (e.g. a short webhook retry window).
 */
export async function startE2EServer(
  options: { clientDir?: string; env?: Record<string, string> } = {},
): Promise<E2EServer> {
  const clientDir = options.clientDir ?? (await buildClientForTests());
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = testConfig({ ...options.env, PORT: String(port), ALLOWED_ORIGINS: url });
  exposeEmulatorToFirebaseAdmin(config);
  const store = await openTestStore({ name: 'pglite' });
  const verifier = createTokenVerifier(config.firebaseProjectId);
  const app = await buildApp({ config, database: store.database, store: store.store, verifier, clientDir });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    async api(method, path, token, body) {
      const res = await fetch(url + '/api' + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as never;
    },
    async close() {
      await app.close();
      await verifier.close();
      await store.close();
    },
  };
}
