// A rolling deploy as a store manager sees it: two instances on one PostgreSQL behind one
// URL, restarted one after the other while an item page is open. The page is not reloaded,
// shows no error, its badge says "Reconnecting…" for a moment and then "Live" again, and a
// change made during each restart appears on it.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { createTokenVerifier, type TokenVerifier } from '../../server/auth/verify-token.js';
import { exposeEmulatorToFirebaseAdmin } from '../../server/config.js';
import { openDatabase, type Database } from '../../server/db/database.js';
import { EventStore } from '../../server/eventstore/event-store.js';
import { projections } from '../../server/features.js';
import {
  openTestStore,
  reportMissingServer,
  serverBackends,
  type Backend,
  type TestStore,
} from '../helpers/backends.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { buildClientForTests } from '../helpers/e2e-build.js';
import { apiAccount, newAppContext, signInViaUi } from '../helpers/e2e-app.js';
import type { E2EServer } from '../helpers/e2e-server.js';
import { startTcpBalancer, type TcpBalancer } from '../helpers/tcp-balancer.js';
import { testConfig } from '../helpers/test-server.js';
import { freePort } from '../helpers/free-port.js';

reportMissingServer('rolling restart');

function requestOnce(
  url: string,
  method: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** One instance: stopped gracefully (as on SIGTERM) and started again on its port. */
class Instance {
  private app: FastifyInstance | null = null;
  private database: Database | null = null;
  private verifier: TokenVerifier | null = null;
  constructor(
    private readonly backend: Backend,
    private readonly schema: string,
    readonly port: number,
    private readonly publicUrl: string,
    private readonly clientDir: string,
  ) {}

  async start(): Promise<void> {
    if (this.app) return; // running already
    const config = testConfig({ PORT: String(this.port), ALLOWED_ORIGINS: this.publicUrl });
    exposeEmulatorToFirebaseAdmin(config);
    this.database = await openDatabase({ url: this.backend.url, schema: this.schema });
    this.verifier = createTokenVerifier(config.firebaseProjectId);
    const store = new EventStore(this.database.db, projections);
    this.app = await buildApp({
      config,
      database: this.database,
      store,
      verifier: this.verifier,
      clientDir: this.clientDir,
    });
    await this.app.listen({ port: this.port, host: '127.0.0.1' });
  }

  async stop(): Promise<void> {
    if (!this.app) return;
    await this.app.close();
    await this.verifier?.close();
    await this.database?.close();
    this.app = null;
  }
}

describe.each(serverBackends())('rolling restart behind one URL on $name', BROWSER_TESTS, (backend) => {
  let store: TestStore;
  let instances: Instance[];
  let balancer: TcpBalancer;
  let browser: Browser;
  let site: E2EServer;

  beforeAll(async () => {
    const clientDir = await buildClientForTests();
    store = await openTestStore(backend);
    const ports = [await freePort(), await freePort()];
    balancer = await startTcpBalancer(ports);
    instances = ports.map((port) => new Instance(backend, store.schema!, port, balancer.url, clientDir));
    for (const instance of instances) await instance.start();
    site = {
      url: balancer.url,
      async api(method, path, token, body) {
        // A new connection per call, as a browser's would be after a deploy: a kept-alive one
        // would still lead to the instance that just stopped.
        const res = await requestOnce(`${balancer.url}/api${path}`, method, token, body);
        if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
        return res.text ? JSON.parse(res.text) : undefined;
      },
      close: async () => undefined,
    };
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    for (const instance of instances ?? []) await instance.stop();
    await balancer?.close();
    await store?.close();
  });

  // Restarts take seconds each on a busy machine: more time than a test's default minute.
  it(
    'restarting each instance in turn keeps the page live: Reconnecting… then Online, no reload, no error',
    { timeout: 150_000 },
    async () => {
      // A retry after a failure mid-restart starts with both instances up and with names of its own.
      for (const instance of instances) await instance.start();
      const run = Date.now();
      const manager = await apiAccount(site, 'Rolling Manager', 'manager');
      const category = await site.api('POST', '/categories', manager.idToken, { name: `Deploy aisle ${run}` });
      const item = await site.api('POST', '/inventory', manager.idToken, {
        name: 'Rolling pin',
        sku: `ROLL-E2E-${run}`,
        category_id: category.id,
        quantity: 40,
        price: 3,
        threshold: 1,
      });

      const context = await newAppContext(browser, site);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await signInViaUi(page, manager.email!, manager.password!);
      await page.goto(`/inventory/${item.id}`);
      const stock = page.getByTestId('current-stock');
      await expect.poll(() => stock.textContent(), { timeout: 20_000 }).toBe('40');
      const badge = page.locator('.live-indicator');
      await expect.poll(() => badge.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Live updates: Online');
      // Every state the badge shows, and a mark that a reload would wipe.
      await page.evaluate(() => {
        const w = window as unknown as { __seen: string[]; __notReloaded: boolean };
        w.__notReloaded = true;
        w.__seen = [];
        const record = () => {
          const label = document.querySelector('.live-indicator')?.getAttribute('aria-label') ?? '';
          if (w.__seen.at(-1) !== label) w.__seen.push(label);
        };
        new MutationObserver(record).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
      });

      let expected = 40;
      for (const [n, instance] of instances.entries()) {
        await instance.stop();
        // A change during the restart, served by the instance that is still up.
        await site.api('POST', `/inventory/${item.id}/adjust`, manager.idToken, { delta: 5 + n, reason: 'restock' });
        expected += 5 + n;
        await instance.start();
        await expect.poll(() => stock.textContent(), { timeout: 20_000 }).toBe(String(expected));
        await expect.poll(() => badge.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Live updates: Online');
      }

      const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
      expect(seen).toContain('Live updates: Reconnecting…');
      expect(seen.at(-1)).toBe('Live updates: Online');
      expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
      expect(await page.locator('.toast-error').count()).toBe(0);
      expect(await page.locator('.error-box').count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
