// A second connection pool on an existing test store's PostgreSQL schema: what another
// server instance on the same database would have. Closing it leaves the schema alone.
import { openDatabase } from '../../server/db/database.js';
import { EventStore } from '../../server/eventstore/event-store.js';
import { projections } from '../../server/features.js';
import type { Backend, TestStore } from './backends.js';

export async function openSecondInstanceStore(backend: Backend, first: TestStore, poolSize = 10): Promise<TestStore> {
  if (!backend.url || !first.schema) throw new Error('a second instance needs a PostgreSQL backend');
  const database = await openDatabase({ url: backend.url, schema: first.schema, poolSize });
  return {
    database,
    store: new EventStore(database.db, projections),
    schema: first.schema,
    close: () => database.close(),
  };
}
