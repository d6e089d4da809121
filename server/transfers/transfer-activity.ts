// The activity log's entry for a transfer's step: who created, shipped, received, wrote off
// or cancelled which transfer, as the log words it (shared/change-sentence.ts). Written by the
// transfers projection's handlers (the log is the activity feature's table), after the
// transfer's row, so a rebuild writes the same rows. The entry keeps the sentence's words for
// the log's search: the sites, locations and items it names as they were then.
import { sql } from 'kysely';
import { describeChange, sentenceText } from '../../shared/change-sentence.js';
import type { ActivityAction } from '../../shared/inventory.js';
import { transferItemsNamedBy, transferPlacesNamedBy, type TransferEvent } from '../../shared/transfers.js';
import { searchColumnNames, searchColumnsOf } from '../activity/search-words.js';
import type { StoredEvent, Transaction } from '../eventstore/types.js';

const idsIn = (ids: string[]) => sql`jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)`;

/** What the log calls a transfer: "Transfer #12". */
export const transferName = (number: number) => `Transfer #${number}`;

export async function logTransferStep(trx: Transaction, event: StoredEvent<TransferEvent['data']>): Promise<void> {
  const id = event.streamId.slice('transfer-'.length);
  const named = [...transferPlacesNamedBy(event.type, event.data), ...transferItemsNamedBy(event.type, event.data)];
  const rows = await sql<{ id: string; name: string }>`
    select id::text as id, name from locations where id::text in (select ${idsIn(named)})
    union all select id::text, name from sites where id::text in (select ${idsIn(named)})
    union all select id::text, name from items where id::text in (select ${idsIn(named)})
    union all select '', 'Transfer #' || number from transfers where id = ${id}`.execute(trx);
  const subject = rows.rows.find((r) => r.id === '')?.name ?? 'a transfer';
  const names = Object.fromEntries(rows.rows.filter((r) => r.id !== '').map((r) => [r.id, r.name]));
  const details = sentenceText(describeChange({ type: event.type, data: event.data, subject, names }, null));
  const action: ActivityAction = event.type === 'TransferCreated' ? 'create' : 'update';
  const actor = event.metadata.actor;
  await sql`insert into activity_log (id, position, user_id, user_name, action, resource_type, resource_id, resource_name,
      timestamp, details, ${searchColumnNames})
    values (${event.eventId.replace(/-/g, '').slice(0, 16)}, ${event.position}, ${actor.uid}, ${actor.name}, ${action},
      'transfer', ${id}, ${subject}, ${event.createdAt}, ${details},
      ${searchColumnsOf(event, action, sql`${subject}::text`, sql`${details}::text`)})`.execute(trx);
}
