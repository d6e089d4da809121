// The as-of bench fills its store with backdated events through the projections' set-based
// forms (tests/bench/as-of-fill.ts); its numbers only count if that store is what the app
// would have written. Here a small fill, with stock that crosses the threshold back and forth,
// is compared table by table with a replay of its events through the handlers.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
import { fillAsOfStore } from '../bench/as-of-fill.js';

describe.each(backends())('as-of bench fill ($name)', (backend) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(backend);
    // 1,000 events over 90 days: about 11 a day, so batches are cut at every midnight.
    await fillAsOfStore(t.store, { items: 40, events: 1_000, quantity: 6 });
  }, 120_000);
  afterAll(() => t?.close());

  it('spreads the events over 90 days in log order, crossings included', async () => {
    const { rows } = await sql<{ n: number; days: number; lows: number; ordered: boolean }>`select
        count(*) filter (where type in ('CategoryCreated', 'ItemCreated', 'StockAdjusted'))::int as n,
        count(distinct (created_at at time zone 'UTC')::date)::int as days,
        count(*) filter (where type = 'ItemWentLow')::int as lows,
        bool_and(created_at >= prev) as ordered
      from (select *, lag(created_at, 1, created_at) over (order by position) as prev from events
        where metadata ->> 'correlationId' is distinct from 'sites-migration') e`.execute(t.database.db);
    // Crossings (ItemWentLow, ItemRecovered) come on top of the 1,000 changes, as the app emits them.
    expect(rows[0]).toMatchObject({ n: 20 + 1_000, ordered: true });
    expect(rows[0]!.days).toBeGreaterThanOrEqual(90);
    expect(rows[0]!.lows).toBeGreaterThan(0);
  });

  it('leaves every projection as a replay of its events does', async () => {
    expect(await verifyProjections(t.store)).toEqual([]);
  }, 120_000);
});
