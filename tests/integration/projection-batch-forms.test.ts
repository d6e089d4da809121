// The set-based forms of the projections (items, history, activity, alerts, dashboard: the
// SQL that runs inside the append statement) against their handlers: a random history of
// the app's own commands is appended the way the app appends it, so each append runs the
// forms that cover its events, then every projection table is compared row for row with a
// replay of the same events through the handlers alone (projections:verify's own check).
// Stock is kept at locations of two sites (moved within them, transferred between them, some
// of the transfers' steps undone, adjusted at each), so stock_levels is compared too, and
// every item's quantity (on hand) must be the sum of its levels, its in_transit what its
// transfers have on the way.
// Any difference fails with the history that produced it, shrunk by fast-check.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import type { BatchProjection, Projection } from '../../server/eventstore/types.js';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
import { historyArb, ItemHistoryWriter } from '../helpers/random-item-history.js';
import { seedPlaces } from '../helpers/test-places.js';
import { TRANSFER_UNDO_TYPES } from '../../shared/transfers.js';

const RUNS = 12;

/** What a transfer's step appends (transfer-service.ts): its own event, its items' steps and their crossings. */
const TRANSFER_STEP_TYPES = new Set([
  'TransferShipped',
  'TransferReceived',
  'TransferLineWrittenOff',
  'StockShipped',
  'StockReceived',
  'TransitWrittenOff',
  'ItemWentLow',
  'ItemRecovered',
  'SiteWentLow',
  'SiteRecovered',
]);

const formsOf = (p: Projection): BatchProjection[] =>
  p.batch === undefined ? [] : Array.isArray(p.batch) ? p.batch : [p.batch];

/** The form an append with these event types runs for `p`, as the event store picks it (the first that covers them). */
function formRun(p: Projection, types: Set<string>): number {
  const handled = [...types].filter((type) => p.handlers[type]);
  if (handled.length === 0) return -1;
  return formsOf(p).findIndex((form) => handled.every((type) => form.types.includes(type)));
}

describe.each(backends())('set-based projection forms on $name', (backend) => {
  let test: TestStore;
  let tables: string[];

  beforeAll(async () => {
    test = await openTestStore(backend, { poolSize: 4 });
    tables = [...new Set(test.store.projections.flatMap((p) => p.tables))];
  });
  afterAll(() => test?.close());

  /** An empty store: no events, no projection rows, no search words; only its sites and locations. */
  async function empty() {
    const all = [...new Set(['events', 'event_idempotency', 'search_words', ...tables])];
    await sql`truncate ${sql.join(all.map((t) => sql.table(t)))} restart identity`.execute(test.store.db);
    return seedPlaces(test.store);
  }

  /** Items whose quantity is not the sum of their levels, or whose units in transit are not their transfers'. */
  const unbalanced = async () =>
    (
      await sql`select i.id, i.quantity, i.in_transit, coalesce(sum(s.quantity), 0)::int as levels
        from items i left join stock_levels s on s.item_id = i.id
        group by i.id
        having i.quantity <> coalesce(sum(s.quantity), 0)
          or i.in_transit <> coalesce((select sum(l.quantity - l.received - l.written_off) from transfer_lines l
            join transfers t on t.id = l.transfer_id
            where l.item_id = i.id and t.status in ('shipped', 'partly-received')), 0)`.execute(test.store.db)
    ).rows;

  it('leave every projection table as the handlers do, for random histories', { timeout: 240_000 }, async () => {
    const withForms = test.store.projections.filter((p) => formsOf(p).length > 0);
    expect(withForms.map((p) => p.name).sort()).toEqual(['activity', 'alerts', 'dashboard', 'history', 'items']);
    // How often each form ran, so the property is known to have exercised every one.
    const ran = new Map<string, number>(
      withForms.flatMap((p) => formsOf(p).map((_, i) => [`${p.name}[${i}]`, 0] as const)),
    );
    let transferSteps = 0;
    // A transfer's step goes set-based in every projection with forms, its crossings per site
    // included (a receipt where items stay low wrote one per line: 500 lines took 1.5 s event by event).
    const eventByEvent: string[] = [];
    let undos = 0;
    const onAppend = (types: Set<string>) => {
      if (types.has('StockShipped') || types.has('StockReceived')) transferSteps += 1;
      if (TRANSFER_UNDO_TYPES.some((type) => types.has(type))) undos += 1;
      if ([...types].every((type) => TRANSFER_STEP_TYPES.has(type))) {
        for (const p of withForms)
          if (formRun(p, types) === -1 && [...types].some((type) => p.handlers[type]))
            eventByEvent.push(`${p.name}: ${[...types].sort().join(', ')}`);
      }
      for (const p of withForms) {
        const form = formRun(p, types);
        if (form >= 0) ran.set(`${p.name}[${form}]`, ran.get(`${p.name}[${form}]`)! + 1);
      }
    };

    await fc.assert(
      fc.asyncProperty(fc.limitShrink(historyArb({ minLength: 10, maxLength: 25 }), 50), async (steps) => {
        const places = await empty();
        await new ItemHistoryWriter(test.store, onAppend, places).write(steps);
        const differences = await verifyProjections(test.store);
        expect(differences, JSON.stringify(differences, null, 1)).toEqual([]);
        expect(await unbalanced()).toEqual([]);
      }),
      { numRuns: RUNS },
    );

    for (const [form, count] of ran) expect(count, `${form} ran ${count} times`).toBeGreaterThanOrEqual(5);
    // Stock was moved between locations, and is at more than one.
    const spread = await sql<{ n: number }>`select count(distinct location_id)::int as n from stock_levels`.execute(
      test.store.db,
    );
    expect(spread.rows[0]!.n).toBeGreaterThan(1);
    // Transfers were shipped and received, in appends of their own, each set-based.
    expect(transferSteps).toBeGreaterThanOrEqual(5);
    expect(eventByEvent).toEqual([]);
    // And some of their steps undone (the opposite step on the items, citing the one undone).
    expect(undos).toBeGreaterThanOrEqual(3);
  });
});
