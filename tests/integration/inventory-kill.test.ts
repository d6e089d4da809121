// "Never loses a change" with the group commit: a server process doing batched
// stock adjustments is killed with SIGKILL in the middle of a storm. Afterwards every
// adjustment it acknowledged is in the store, nothing is there that was not sent, the item's
// stock is exactly the sum of what is stored, and the projections equal a replay. PostgreSQL
// only: with PGlite the database lives inside the process that is killed.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { openTestStore, reportMissingServer, serverBackends, type TestStore } from '../helpers/backends.js';
import { emulatorHost, emulatorProjectId, type TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const appProcess = fileURLToPath(new URL('../helpers/app-process.ts', import.meta.url));
const CLIENTS = 32;
/** Acknowledgements to wait for before the kill. */
const KILL_AFTER = 600;
const APP_NAME = `stockroom-killed-${process.pid}`;

reportMissingServer('kill -9 in the middle of batched adjustments');

describe.each(serverBackends())('kill -9 during batched adjustments on $name', { timeout: 180_000 }, (backend) => {
  let store: TestStore;
  let setup: TestServer;
  let staff: TestAccount;
  let itemId: string;

  beforeAll(async () => {
    store = await openTestStore(backend, { poolSize: 5 });
    setup = await startTestServer(backend, { store });
    const manager = await accountWithRole(setup, 'manager');
    staff = await accountWithRole(setup, 'staff');
    const category = await setup.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: 'Killed' },
    });
    const item = await setup.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: { name: 'Survivor', sku: 'KILL-1', category_id: category.body.id, quantity: 0, price: 4.5, threshold: 0 },
    });
    itemId = item.body.id;
  });
  afterAll(async () => {
    await setup?.close();
    await store?.close();
  });

  it('keeps every acknowledged adjustment and nothing that was not sent', async () => {
    const child = fork(appProcess, [], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        // Tagged, so the test can tell when the killed server's sessions are all gone.
        STOCKROOM_TEST_DB_URL: `${backend.url}${backend.url!.includes('?') ? '&' : '?'}application_name=${APP_NAME}`,
        STOCKROOM_TEST_SCHEMA: store.schema,
        STOCKROOM_TEST_EMULATOR: emulatorHost(),
        STOCKROOM_TEST_PROJECT: emulatorProjectId(),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const address = await new Promise<string>((resolve, reject) => {
      child.once('message', (m: { address: string }) => resolve(m.address));
      child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
    });

    const sent = new Set<string>();
    const acknowledged = new Set<string>();
    /** Anything but a 200 answer, or no answer while the server was still meant to be up. */
    const unexpected: string[] = [];
    let killed = false;
    let next = 0;
    const stop = () => {
      if (killed) return;
      killed = true;
      child.kill('SIGKILL');
    };
    const client = async () => {
      while (!killed) {
        const id = `storm-${String(next++).padStart(6, '0')}`;
        sent.add(id);
        let res: Response;
        try {
          res = await fetch(`${address}/api/inventory/${itemId}/adjust`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${staff.idToken}`,
              'content-type': 'application/json',
              'x-request-id': id,
            },
            body: JSON.stringify({ delta: 1, reason: 'restock' }),
          });
        } catch (error) {
          // No answer: expected of a request the kill cut off (sent, not acknowledged), a
          // failure before it.
          if (!killed) {
            unexpected.push(`${id}: no answer before the kill (${String((error as Error).cause ?? error)})`);
            stop();
          }
          continue;
        }
        if (res.status === 200) {
          acknowledged.add(id);
          await res.arrayBuffer().catch(() => undefined); // the kill may cut the body short
        } else {
          // The server answered, so it was alive: only 200 is right (a 500 that commits is a bug too).
          unexpected.push(`${id}: ${res.status} ${await res.text().catch(() => '(body cut off)')}`);
          stop();
        }
        if (acknowledged.size >= KILL_AFTER) stop();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    await exited;
    expect(unexpected, 'answers other than 200, or none before the kill').toEqual([]);
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);

    // Wait until the killed server's sessions are gone: each transaction it had open has then
    // committed or rolled back, and nothing more will arrive.
    const db = store.database.db;
    await expect
      .poll(
        async () =>
          Number(
            (
              await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where application_name = ${APP_NAME}`.execute(db)
            ).rows[0]!.n,
          ),
        { timeout: 30_000 },
      )
      .toBe(0);

    const stored = (
      await sql<{ id: string; tx: string }>`select metadata ->> 'correlationId' as id, tx_id::text as tx from events
        where stream_id = ${`item-${itemId}`} and type = 'StockAdjusted'`.execute(db)
    ).rows;
    const storedIds = new Set(stored.map((r) => r.id));
    expect(storedIds.size).toBe(stored.length);
    console.log(`kill -9: ${sent.size} sent, ${acknowledged.size} acknowledged, ${stored.length} stored`);
    const lost = [...acknowledged].filter((id) => !storedIds.has(id));
    expect(lost, 'acknowledged but not stored').toEqual([]);
    const invented = [...storedIds].filter((id) => !sent.has(id));
    expect(invented, 'stored but never sent').toEqual([]);
    expect(stored.length).toBeGreaterThanOrEqual(acknowledged.size);
    // Group commit was at work: fewer transactions than adjustments.
    expect(new Set(stored.map((r) => r.tx)).size).toBeLessThan(stored.length);

    const item = await setup.request('GET', `/api/inventory/${itemId}`, { token: staff.idToken });
    const head = await sql<{
      v: number;
    }>`select max(stream_version) as v from events where stream_id = ${`item-${itemId}`}`.execute(db);
    expect(item.body.quantity).toBe(stored.length);
    expect(item.body.version).toBe(Number(head.rows[0]!.v));
    expect(await verifyProjections(store.store)).toEqual([]);
  });
});
