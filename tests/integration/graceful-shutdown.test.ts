// A deploy as it happens behind one URL: two instances on one PostgreSQL, and SIGTERM to one
// of them while staff write and wall displays are connected. No request is cut mid-way or
// reset (each gets its whole answer, or a 503 or a refused connection and the load balancer
// sends it to the other instance), feed clients are told 1012 "server restarting", and
// reconnecting to the other instance with their cursor they catch up with nothing missed
// and nothing twice.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, reportMissingServer, serverBackends, type TestStore } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { emulatorHost, emulatorProjectId, type TestAccount } from '../helpers/emulator-accounts.js';
import { connectFeed, type EventMessage, type FeedClient } from '../helpers/feed-client.js';
import { freePort } from '../helpers/free-port.js';
import { startTestServer, TEST_SECRETS_KEY, type TestServer } from '../helpers/test-server.js';

reportMissingServer('graceful shutdown');

const root = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request on its own connection (no keep-alive), so each outcome belongs to one request. */
function post(url: string, token: string, body: unknown, key: string): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'idempotency-key': key,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode! }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(payload);
  });
}

/** A GET on its own connection, as a load balancer's health check. */
function get(url: string): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode! }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

/** A wall display: follows the feed, and on a restart close reconnects elsewhere with its cursor. */
class Screen {
  events: EventMessage[] = [];
  closeCodes: number[] = [];
  current!: FeedClient;

  static async open(url: string, token: string): Promise<Screen> {
    const screen = new Screen();
    screen.current = await connectFeed(url, { token });
    await screen.current.waitFor((m) => m.some((x) => x.type === 'hello'));
    return screen;
  }

  lastCursor(): string | undefined {
    const all = this.current.messages.filter((m): m is EventMessage => m.type === 'event');
    return all.at(-1)?.cursor;
  }

  async moveTo(url: string, token: string): Promise<void> {
    const closed = await this.current.closed;
    this.closeCodes.push(closed.code);
    this.events.push(...this.current.events());
    const cursor =
      this.lastCursor() ?? (this.current.messages.find((m) => m.type === 'hello') as { cursor: string }).cursor;
    this.current = await connectFeed(url, { token, cursor });
  }

  all(): EventMessage[] {
    return [...this.events, ...this.current.events()];
  }
}

describe.each(serverBackends())('graceful shutdown on $name', (backend) => {
  let store: TestStore;
  let other: TestServer;
  let child: ChildProcess | undefined;
  let output = '';
  let manager: TestAccount;
  let port: number;

  beforeAll(async () => {
    store = await openTestStore(backend);
    other = await startTestServer(backend, { store });
    manager = await accountWithRole(other, 'manager');
    port = await freePort();
    const url = new URL(backend.url!);
    url.searchParams.set('options', `-c search_path="${store.schema}",public`);
    child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--api-only'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: url.toString(),
        SECRETS_KEY: TEST_SECRETS_KEY,
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
        FIREBASE_PROJECT_ID: emulatorProjectId(),
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '1000000',
        SHUTDOWN_TIMEOUT_MS: '10000',
        SHUTDOWN_DRAIN_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    for (let i = 0; i < 300; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      await sleep(200);
    }
    throw new Error(`instance did not start: ${output}`);
  }, 120_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await other?.close();
    await store?.close();
  });

  it('SIGTERM under load: no request cut, displays told 1012, and they catch up on the other instance', async () => {
    const instance = `http://127.0.0.1:${port}`;
    const created = await fetch(`${instance}/api/categories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manager.idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Deploys' }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const item = await fetch(`${instance}/api/inventory`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manager.idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Rolling',
        sku: 'ROLL-1',
        category_id: created.id,
        quantity: 100_000,
        price: 1,
        threshold: 0,
      }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const stream = `item-${item.id}`;
    const screens = await Promise.all([1, 2, 3].map(() => Screen.open(instance, manager.idToken)));

    // A load balancer's health check: every 100 ms, and once the instance answers 503 (its
    // drain after SIGTERM) no new work goes there.
    let routable = true;
    let stopChecking = false;
    const healthCheck = (async () => {
      while (!stopChecking) {
        const health = await get(`${instance}/api/health`);
        if (!('status' in health) || health.status !== 200) routable = false;
        await sleep(100);
      }
    })();

    // Writers send to the instance while the load balancer routes there, then to the other
    // one; a 503 from the closing instance is retried (same key) elsewhere.
    const outcomes: Array<{ status: number } | { error: string }> = [];
    const acknowledged = new Set<string>();
    let stopWriting = false;
    let exited = false;
    const writer = async (w: number) => {
      for (let i = 0; !stopWriting; i++) {
        const key = `deploy-${w}-${i}`;
        for (let attempt = 0; attempt < 20; attempt++) {
          const target = !routable || exited || attempt > 0 ? other.url : instance;
          const outcome = await post(
            `${target}/api/inventory/${item.id}/adjust`,
            manager.idToken,
            { delta: 1, reason: 'restock' },
            key,
          );
          outcomes.push(outcome);
          if ('status' in outcome && outcome.status === 200) {
            acknowledged.add(key);
            break;
          }
          // Refused: the instance stopped listening; the client sends it again with its key, as
          // the app's does. A reset (a kept-alive socket closed under a request on its way) must
          // not happen: the drain closes every connection after an answer first.
          if ('error' in outcome && outcome.error === 'ECONNREFUSED') continue;
          if ('status' in outcome && outcome.status === 503) continue;
          break; // anything else is recorded and fails the test below
        }
      }
    };
    const writers = Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    await sleep(1500);
    const exit = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    const code = await exit;
    const routableAtExit = routable;
    exited = true;
    child = undefined;
    await Promise.all(screens.map((s) => s.moveTo(other.url, manager.idToken)));
    await sleep(1000);
    stopWriting = true;
    stopChecking = true;
    await Promise.all([writers, healthCheck]);

    expect(code, output).toBe(0);
    expect(routableAtExit, 'the health check said 503 before the instance stopped listening').toBe(false);
    const cut = outcomes.filter((o) => 'error' in o && o.error !== 'ECONNREFUSED');
    expect(cut).toEqual([]);
    expect(outcomes.filter((o) => 'status' in o && o.status !== 200 && o.status !== 503)).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(20);
    for (const screen of screens) expect(screen.closeCodes).toEqual([1012]);

    const final = await other.request('GET', `/api/inventory/${item.id}`, { token: manager.idToken });
    expect(final.body.quantity).toBe(100_000 + acknowledged.size);
    for (const screen of screens) {
      await screen.current.waitFor(
        () =>
          screen.all().filter((e) => e.event.stream === stream && e.event.type === 'StockAdjusted').length >=
          acknowledged.size,
        30_000,
        'every acknowledged adjustment',
      );
      const versions = screen
        .all()
        .filter((e) => e.event.stream === stream && e.event.type === 'StockAdjusted')
        .map((e) => e.event.version);
      expect(new Set(versions).size).toBe(versions.length);
      expect(versions.length).toBe(acknowledged.size);
      await screen.current.close();
    }
  });
});
