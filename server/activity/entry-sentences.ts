// What an activity entry says: its event's sentence (shared/change-sentence.ts), built when the
// entry is read, so every entry ever written reads the current way without rewriting the log.
// Entry reads (the log, the dashboard, the wall display) join each entry's event by position
// with `entryEventColumns` and pass the rows here.
import { sql, type Kysely } from 'kysely';
import { sentenceText, type SentencePart } from '../../shared/change-sentence.js';
import { describeEvents, toLoggedEvent, type LoggedEvent } from './change-facts.js';

/** The columns of the entry's event, from `left join events e on e.position = <entry>.position`. */
export const entryEventColumns = sql`e.event_id::text as event_id, e.tx_id::text as event_tx_id, e.stream_id as event_stream_id,
  e.type as event_type, e.data as event_data, e.metadata as event_metadata`;

export interface EntryEventRow {
  position: number | string;
  user_name: string;
  resource_name: string;
  details: string;
  event_id?: string | null;
  event_tx_id?: string | null;
  event_stream_id?: string | null;
  event_type?: string | null;
  event_data?: unknown;
  event_metadata?: unknown;
}

export interface EntrySentence {
  details: string;
  summary: SentencePart[];
}

/**
 * Each row's sentence, in the rows' order, naming the entry's author. An entry whose event is
 * not there (never, short of a damaged store) keeps the text the log stored for it.
 */
export async function entrySentences(db: Kysely<any>, rows: EntryEventRow[]): Promise<EntrySentence[]> {
  const events: LoggedEvent[] = [];
  const authors = new Map<number, string>();
  const subjects = new Map<number, string>();
  for (const row of rows) {
    if (!row.event_id || !row.event_type || !row.event_stream_id) continue;
    const event = toLoggedEvent({
      position: row.position,
      tx_id: row.event_tx_id,
      event_id: row.event_id,
      stream_id: row.event_stream_id,
      type: row.event_type,
      data: row.event_data,
      metadata: row.event_metadata,
    });
    events.push(event);
    authors.set(event.position, row.user_name);
    subjects.set(event.position, row.resource_name);
  }
  const sentences = await describeEvents(db, events, (e) => authors.get(e.position) ?? null, subjects);
  return rows.map((row) => {
    const summary = row.event_id ? sentences.get(row.event_id) : undefined;
    return summary
      ? { summary, details: sentenceText(summary) }
      : { summary: [{ text: row.details }], details: row.details };
  });
}
