// The set-based forms of the projections (items, history, activity, alerts, dashboard: the
// SQL that runs inside the append statement) against their handlers: a random history of
// the app's own commands is appended the way the app appends it, so each append runs the
// forms that cover its events, then every projection table is compared row for row with a
// replay of the same events through the handlers alone (projections:verify's own check).
// Any difference fails with the history that produced it, shrunk by fast-check.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import type { BatchProjection, Projection } from '../../server/eventstore/types.js';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
import { historyArb, ItemHistoryWriter } from '../helpers/random-item-history.js';

const RUNS = 20;

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

  /** An empty store: no events, no projection rows, no search words. */
  async function empty(): Promise<void> {
    const all = [...new Set(['events', 'event_idempotency', 'search_words', ...tables])];
    await sql`truncate ${sql.join(all.map((t) => sql.table(t)))} restart identity`.execute(test.store.db);
  }

  it('leave every projection table as the handlers do, for random histories', { timeout: 240_000 }, async () => {
    const withForms = test.store.projections.filter((p) => formsOf(p).length > 0);
    expect(withForms.map((p) => p.name).sort()).toEqual(['activity', 'alerts', 'dashboard', 'history', 'items']);
    // How often each form ran, so the property is known to have exercised every one.
    const ran = new Map<string, number>(
      withForms.flatMap((p) => formsOf(p).map((_, i) => [`${p.name}[${i}]`, 0] as const)),
    );
    const onAppend = (types: Set<string>) => {
      for (const p of withForms) {
        const form = formRun(p, types);
        if (form >= 0) ran.set(`${p.name}[${form}]`, ran.get(`${p.name}[${form}]`)! + 1);
      }
    };

    await fc.assert(
      fc.asyncProperty(fc.limitShrink(historyArb({ minLength: 10, maxLength: 25 }), 50), async (steps) => {
        await empty();
        await new ItemHistoryWriter(test.store, onAppend).write(steps);
        const differences = await verifyProjections(test.store);
        expect(differences, JSON.stringify(differences, null, 1)).toEqual([]);
      }),
      { numRuns: RUNS },
    );

    for (const [form, count] of ran) expect(count, `${form} ran ${count} times`).toBeGreaterThanOrEqual(5);
  });
});
