// Kysely's view of the schema. Most queries here are `sql` templates with typed rows;
// tables queried through the builder are declared so the compiler checks column names.
import type { Generated } from 'kysely';

export interface EventsTable {
  position: Generated<number>;
  tx_id: Generated<string>;
  stream_id: string;
  stream_type: string;
  stream_version: number;
  event_id: string;
  type: string;
  data: unknown;
  metadata: unknown;
  created_at: Generated<Date>;
}

export interface DB {
  events: EventsTable;
}
