// The event store on every backend: concurrency, idempotency, gap-safe reads, projections.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { EventStore, WrongExpectedVersionError } from '../../server/eventstore/event-store.js';
import { rebuildProjections, verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { START, type Cursor, type EventMetadata, type StoredEvent } from '../../server/eventstore/types.js';
import { backends, openTestStore, reportMissingServer, serverBackends, type TestStore } from '../helpers/backends.js';
import { createStreamCounts, streamCounts } from '../helpers/test-projection.js';

const meta = (extra: Partial<EventMetadata> = {}): EventMetadata => ({
  actor: { uid: 'u1', name: 'Tester' },
  correlationId: 'c1',
  ...extra,
});

describe.each(backends())('event store on $name', (backend) => {
  let t: TestStore;
  let store: EventStore;

  beforeAll(async () => {
    t = await openTestStore(backend);
    await createStreamCounts(t.database);
    store = new EventStore(t.database.db, [streamCounts]);
  });
  afterAll(() => t.close());

  it('lets exactly one of 50 concurrent appends with the same expected version win', async () => {
    const stream = { id: 'race-1', type: 'test' };
    await store.append(stream, 0, [{ type: 'Counted', data: { n: 0 } }], meta());
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => store.append(stream, 1, [{ type: 'Counted', data: { n: i } }], meta())),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o) => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const o of lost) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedVersionError);
    expect(((o) => o)(lost[0] as PromiseRejectedResult).reason.status).toBe(409);
    const events = await store.readStream(stream.id);
    expect(events.map((e) => e.streamVersion)).toEqual([1, 2]);
  });

  it('writes once for a repeated idempotency key and returns the first result', async () => {
    const stream = { id: 'idem-1', type: 'test' };
    const first = await store.append(stream, 'any', [{ type: 'Counted', data: {} }], meta({ idempotencyKey: 'k-1' }));
    const again = await store.append(stream, 'any', [{ type: 'Counted', data: {} }], meta({ idempotencyKey: 'k-1' }));
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () =>
        store.append(stream, 'any', [{ type: 'Counted', data: {} }], meta({ idempotencyKey: 'k-2' })),
      ),
    );
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.events.map((e) => e.eventId)).toEqual(first.events.map((e) => e.eventId));
    expect(concurrent.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await store.readStream(stream.id)).toHaveLength(2);
    const counts = await sql<{ events: number }>`select events from stream_counts where stream_id = 'idem-1'`.execute(
      t.database.db,
    );
    expect(counts.rows[0]!.events).toBe(2);
  });

  it('runs projections in the append transaction: a failed projection writes no event', async () => {
    const failing = new EventStore(t.database.db, [
      { name: 'boom', tables: [], handlers: { Exploding: async () => Promise.reject(new Error('projection failed')) } },
    ]);
    await expect(
      failing.append({ id: 'boom-1', type: 'test' }, 0, [{ type: 'Exploding', data: {} }], meta()),
    ).rejects.toThrow('projection failed');
    expect(await store.readStream('boom-1')).toHaveLength(0);
  });

  it('reads everything after a cursor in order, in pages', async () => {
    const seen: StoredEvent[] = [];
    let cursor: Cursor = START;
    const all = await sql<{ n: number }>`select count(*)::int as n from events`.execute(t.database.db);
    // Reads stop before any transaction still open in the cluster (gap-safe: tx_id below the
    // snapshot's xmin), and other test files share this PostgreSQL: pages are read until every
    // event is, as the live feed reads on, within a deadline.
    const deadline = Date.now() + 30_000;
    while (seen.length < all.rows[0]!.n && Date.now() < deadline) {
      const page = await store.readAfter(cursor, 7);
      if (page.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      seen.push(...page);
      cursor = { txId: page.at(-1)!.txId, position: page.at(-1)!.position };
    }
    expect(await store.readAfter(cursor, 7)).toEqual([]);
    expect(seen).toHaveLength(all.rows[0]!.n);
    expect(new Set(seen.map((e) => e.position)).size).toBe(seen.length);
    expect(await store.headCursor()).toEqual(cursor);
  });

  it('reports no difference after a burst of writes, and one after a projection row is tampered with', async () => {
    // 600 events: a replay goes a chunk of them per transaction, so this crosses chunks.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store.append(
          { id: `burst-${i % 8}`, type: 'test' },
          'any',
          Array.from({ length: 15 }, (_, j) => ({ type: 'Counted', data: { i, j } })),
          meta(),
        ),
      ),
    );
    expect(await verifyProjections(store)).toEqual([]);
    await sql`update stream_counts set events = events + 5 where stream_id = 'burst-3'`.execute(t.database.db);
    expect(await verifyProjections(store)).toMatchObject([{ table: 'stream_counts', onlyLive: 1, onlyRebuilt: 1 }]);
    await rebuildProjections(store);
    expect(await verifyProjections(store)).toEqual([]);
    const row = await sql<{ events: number }>`select events from stream_counts where stream_id = 'burst-3'`.execute(
      t.database.db,
    );
    expect(row.rows[0]!.events).toBe(75);
  });
});

reportMissingServer('gap-safe reads with concurrent transactions');

describe.each(serverBackends())('gap-safe reads on $name (concurrent transactions)', (backend) => {
  // PGlite has one connection, so its transactions cannot interleave: this case exists only on a server.
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(backend);
  });
  afterAll(() => t.close());

  it('delivers both events when the transaction that started first commits last', async () => {
    const store = new EventStore(t.database.db, []);
    const head = await store.headCursor();
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((r) => (releaseFirst = r));
    let firstInserted!: () => void;
    const firstHasInserted = new Promise<void>((r) => (firstInserted = r));
    const first = t.database.db.transaction().execute(async (trx) => {
      await store.appendIn(trx, { id: 'late', type: 'test' }, 0, [{ type: 'Late', data: {} }], meta());
      firstInserted();
      await firstMayCommit;
    });
    await firstHasInserted;
    await store.append({ id: 'early', type: 'test' }, 0, [{ type: 'Early', data: {} }], meta());

    // A naive `position > n` reader sees the second event now and would skip the first forever.
    const naive = await sql<{
      type: string;
    }>`select type from events where position > ${head.position} order by position`.execute(t.database.db);
    expect(naive.rows.map((r) => r.type)).toEqual(['Early']);

    const between = await store.readAfter(head);
    expect(between).toEqual([]); // withheld while an older transaction is open
    releaseFirst();
    await first;
    // Both now, in commit-safe order. Polled: on a shared PostgreSQL another test file's open
    // transaction may hold the gap-safe horizon back for a moment (the horizon is server-wide).
    await vi.waitFor(async () => expect((await store.readAfter(head)).map((e) => e.type)).toEqual(['Late', 'Early']), {
      timeout: 15_000,
      interval: 100,
    });
  });
});
