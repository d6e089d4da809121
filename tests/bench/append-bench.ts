// The append path: event-sourced appends (optimistic version check, event row, idempotency
// off, no projections) beside plain single-row INSERTs into a table of the same shape.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { EventStore } from '../../server/eventstore/event-store.js';
import { benchBackends, fmt, load, openBenchStore, type Row } from './bench-kit.js';

const meta = { actor: { uid: 'bench', name: 'Bench' }, correlationId: 'bench' };

export async function appendBench(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const backend of benchBackends()) {
    const bench = await openBenchStore(backend);
    const store = new EventStore(bench.database.db, []);
    const db = bench.database.db;
    await sql`create table events_plain (like events including all)`.execute(db);
    const total = backend.name === 'pglite' ? 2000 : 5000;
    const concurrency = backend.name === 'pglite' ? 1 : 8;

    const appended = await load(total, concurrency, async (i) => {
      await store.append({ id: `bench-${i}`, type: 'bench' }, 0, [{ type: 'Benched', data: { i } }], meta);
    });
    const inserted = await load(total, concurrency, async (i) => {
      await sql`insert into events_plain (stream_id, stream_type, stream_version, event_id, type, data, metadata)
        values (${`bench-${i}`}, 'bench', 1, ${randomUUID()}, 'Benched', ${JSON.stringify({ i })}::jsonb,
          ${JSON.stringify(meta)}::jsonb)`.execute(db);
    });
    rows.push({
      benchmark: `append: event-sourced appends/s (${backend.name}, ${concurrency} writers)`,
      result: fmt(appended.perSecond),
      target: `beside plain INSERT: ${fmt(inserted.perSecond)}/s (ratio ${fmt(appended.perSecond / inserted.perSecond, 2)})`,
    });
    await bench.close();
  }
  return rows;
}
