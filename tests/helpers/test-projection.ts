// A small projection for event-store tests: counts events per stream.
import { sql } from 'kysely';
import type { Projection } from '../../server/eventstore/types.js';
import type { Database } from '../../server/db/database.js';

export const streamCounts: Projection = {
  name: 'stream_counts',
  tables: ['stream_counts'],
  handlers: {
    Counted: async (event, trx) => {
      await sql`insert into stream_counts (stream_id, events, last_position) values (${event.streamId}, 1, ${event.position})
        on conflict (stream_id) do update set events = stream_counts.events + 1, last_position = excluded.last_position`.execute(
        trx,
      );
    },
  },
};

export async function createStreamCounts(database: Database): Promise<void> {
  await sql`create table if not exists stream_counts (stream_id text primary key, events int not null, last_position bigint not null)`.execute(
    database.db,
  );
}
