// The command path's parts, each where it belongs: the event store's batched handler serves
// any stream (here a category's renames, not stock adjustments), and an adjustment is decided
// at the time of the app's injected clock, not the system's.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { categoryStream, type CategoryEvent } from '../../shared/inventory-events.js';
import { updateCategory, type CategoryState } from '../../server/categories/decide.js';
import { NotFoundError } from '../../server/errors.js';
import { BatchedCommandHandler } from '../../server/eventstore/batched-commands.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const DAY = 86_400_000;

describe.each(backends())('the command path on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  /** The app's clock: ten days ahead of the system's. */
  const ahead = () => new Date(Date.now() + 10 * DAY);

  beforeAll(async () => {
    server = await startTestServer(backend, { context: { clock: ahead } });
    manager = await accountWithRole(server, 'manager');
  });
  afterAll(() => server.close());
  afterEach(async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });

  it("batches any stream's commands: renames of one category sent together share a transaction, each decided on the one before", async () => {
    const category = (
      await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Shelf 0' } })
    ).body;
    type Row = { id: string; name: string; description: string; version: number };
    const renames = new BatchedCommandHandler<
      Row,
      CategoryState,
      { name: string },
      CategoryEvent,
      { name: string; version: number }
    >(
      server.store.store,
      {
        stream: categoryStream,
        lock: (ids, alongside) => sql<Row>`select id, name, description, version ${alongside} from categories
          where id in (${sql.join(ids)}) order by id for update`,
        state: (row) => ({
          id: row.id,
          name: row.name,
          description: row.description,
          itemCount: 0,
          version: Number(row.version),
        }),
        missing: () => new NotFoundError('Category not found'),
        decide: (command, state) => updateCategory(command, state),
        evolve: (state, event, { version }) =>
          state && event.type === 'CategoryUpdated'
            ? { ...state, name: event.data.changes.name?.to ?? state.name, version }
            : state,
        answer: (state) => ({ name: state.name, version: state.version }),
      },
      { lanes: 1 },
    );
    const metadata = { actor: { uid: 'renamer', name: 'Renamer' }, correlationId: 'renames' };
    // Submitted in one turn: one batch. The second rename changes nothing (the first already did).
    const answers = await Promise.all(
      ['Shelf 1', 'Shelf 1', 'Shelf 2'].map((name) =>
        renames.handle({ id: category.id, command: { name }, metadata, now: new Date() }),
      ),
    );
    expect(answers).toEqual([
      { name: 'Shelf 1', version: 2 },
      { name: 'Shelf 1', version: 2 },
      { name: 'Shelf 2', version: 3 },
    ]);
    const events = await sql<{ type: string; tx: string }>`select type, tx_id::text as tx from events
      where stream_id = ${`category-${category.id}`} and stream_version > 1 order by stream_version`.execute(
      server.store.database.db,
    );
    expect(events.rows.map((e) => e.type)).toEqual(['CategoryUpdated', 'CategoryUpdated']);
    expect(new Set(events.rows.map((e) => e.tx)).size).toBe(1);
    const now = await server.request('GET', `/api/categories/${category.id}`, { token: manager.idToken });
    expect(now.body).toMatchObject({ name: 'Shelf 2', version: 3 });
    await expect(
      renames.handle({ id: '00000000-0000-4000-8000-000000000000', command: { name: 'x' }, metadata, now: new Date() }),
    ).rejects.toThrow('Category not found');
  });

  it("decides an adjustment's moment by the app's clock: a sale made an hour ago by the device is 10 days old to it", async () => {
    const category = (
      await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Clocked' } })
    ).body;
    const item = (
      await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: { name: 'Clocked item', sku: 'CLOCK-1', category_id: category.id, quantity: 5, price: 1, threshold: 0 },
      })
    ).body;
    const adjust = (occurredAt: Date) =>
      server.request('POST', `/api/inventory/${item.id}/adjust`, {
        token: manager.idToken,
        body: { delta: -1, reason: 'sale', occurredAt: occurredAt.toISOString() },
      });
    const refused = await adjust(new Date(Date.now() - 3_600_000));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/7 days/);
    // Two days before the app's clock (eight days ahead of the system's, where it would count as
    // made when recorded): taken, with its moment.
    const moment = new Date(ahead().getTime() - 2 * DAY);
    const taken = await adjust(moment);
    expect(taken.status).toBe(200);
    expect(taken.body.quantity).toBe(4);
    const sold = await sql<{ at: string }>`select data ->> 'occurredAt' as at from events
      where stream_id = ${`item-${item.id}`} and type = 'StockAdjusted'`.execute(server.store.database.db);
    expect(sold.rows.map((r) => r.at)).toEqual([moment.toISOString()]);
  });
});
