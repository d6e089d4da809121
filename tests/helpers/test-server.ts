// A real server (buildApp + listen on a free port) on a test backend, signing in through
// the test emulator. Tests call it over real HTTP.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import type { AppParts } from '../../server/app-context.js';
import { exposeEmulatorToFirebaseAdmin, loadConfig, type Config } from '../../server/config.js';
import { createTokenVerifier, type TokenVerifier } from '../../server/auth/verify-token.js';
import { openTestStore, type Backend, type TestStore } from './backends.js';
import { emulatorHost, emulatorProjectId } from './emulator-accounts.js';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  store: TestStore;
  config: Config;
  verifier: TokenVerifier;
  /** fetch against the server with an optional bearer token; JSON in, JSON out. */
  request(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    body: any;
    headers: Headers;
  }>;
  close(): Promise<void>;
}

/**
 * The secrets key of every test server (SECRETS_KEY), so servers in other processes on the
 * same test database (app-process.ts, a spawned server) open the webhook secrets too.
 */
export const TEST_SECRETS_KEY = 'c3RvY2tyb29tLXRlc3RzLW9ubHktc2VjcmV0cy1rZXk=';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    SECRETS_KEY: TEST_SECRETS_KEY,
    FIREBASE_PROJECT_ID: emulatorProjectId(),
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
    LOG_LEVEL: 'silent',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...overrides,
  });
}

export async function startTestServer(
  backend: Backend,
  options: { env?: Record<string, string>; store?: TestStore; context?: Partial<AppParts> } = {},
): Promise<TestServer> {
  const config = testConfig(options.env);
  exposeEmulatorToFirebaseAdmin(config);
  const store = options.store ?? (await openTestStore(backend));
  const verifier = createTokenVerifier(config.firebaseProjectId, { emulator: Boolean(config.authEmulatorHost) });
  const app = await buildApp({ config, database: store.database, store: store.store, verifier, ...options.context });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    app,
    store,
    config,
    verifier,
    async request(method, path, { token, body, headers = {} } = {}) {
      const res = await fetch(address + path, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      await app.close();
      await verifier.close();
      if (!options.store) await store.close();
    },
  };
}
