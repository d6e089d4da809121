// The `transfers` and `transfer_lines` read tables (migration 025), and the activity log's
// entries for each step (and each step's undoing). A transfer changes a few times in its life, one command to a
// transaction, so these handlers have no set-based form: an append runs them event by event,
// as a rebuild does (each is one or two statements, whatever the number of lines). What the
// steps do to the items is the items projection's (their own events, in the same append).
import { sql } from 'kysely';
import type { TransferEvent } from '../../shared/transfers.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';
import { logTransferStep } from './transfer-activity.js';

type Data<T extends TransferEvent['type']> = Extract<TransferEvent, { type: T }>['data'];

export const transferIdOf = (streamId: string) => streamId.slice('transfer-'.length);

const touched = (event: StoredEvent) => sql`version = ${event.streamVersion}, updated_at = ${event.createdAt}`;

/** After a receipt or a write-off: what is left in transit, and whether that closes the transfer. */
const settled = (event: StoredEvent, remaining: number) =>
  sql`in_transit = ${remaining}, status = ${remaining > 0 ? 'partly-received' : 'received'},
    closed_at = ${remaining > 0 ? null : event.createdAt}`;

/**
 * After a receipt or a write-off is undone: units are in transit again, so the transfer is
 * open again, partly received while any unit is received or written off (shared/transfers.ts).
 */
const reopened = (remaining: number) =>
  sql`in_transit = ${remaining}, status = case when received + written_off > 0 then 'partly-received' else 'shipped' end,
    closed_at = null`;

/** Each handler updates the rows, then logs the step (which reads the transfer's number from its row). */
const logged =
  <D>(apply: (event: StoredEvent<D>, trx: Transaction) => Promise<void>) =>
  async (event: StoredEvent<D>, trx: Transaction) => {
    await apply(event, trx);
    await logTransferStep(trx, event as StoredEvent<TransferEvent['data']>);
  };

export const transfersProjection: Projection = {
  name: 'transfers',
  tables: ['transfers', 'transfer_lines'],
  handlers: {
    TransferCreated: logged(async (event: StoredEvent<Data<'TransferCreated'>>, trx) => {
      const d = event.data;
      const units = d.lines.reduce((sum, l) => sum + l.quantity, 0);
      await sql`insert into transfers (id, number, from_site_id, to_site_id, note, status, line_count, units, created_by_uid,
          created_by, version, created_at, updated_at)
        values (${d.transferId}, ${d.number}, ${d.fromSiteId}, ${d.toSiteId}, ${d.note}, 'draft', ${d.lines.length}, ${units},
          ${event.metadata.actor.uid}, ${event.metadata.actor.name}, ${event.streamVersion}, ${event.createdAt},
          ${event.createdAt})`.execute(trx);
      const lines = d.lines.map((l, i) => ({
        n: i + 1,
        item_id: l.itemId,
        from_location_id: l.fromLocationId,
        quantity: l.quantity,
      }));
      await sql`insert into transfer_lines (transfer_id, line_no, item_id, from_location_id, quantity)
        select ${d.transferId}::uuid, l.n, l.item_id, l.from_location_id, l.quantity
        from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as l (n int, item_id uuid, from_location_id uuid, quantity int)`.execute(
        trx,
      );
    }),
    TransferShipped: logged(async (event: StoredEvent<Data<'TransferShipped'>>, trx) => {
      await sql`update transfers set status = 'shipped', in_transit = ${event.data.units}, shipped_at = ${event.createdAt},
          ${touched(event)}
        where id = ${transferIdOf(event.streamId)}`.execute(trx);
    }),
    TransferReceived: logged(async (event: StoredEvent<Data<'TransferReceived'>>, trx) => {
      const id = transferIdOf(event.streamId);
      const d = event.data;
      const units = d.lines.reduce((sum, l) => sum + l.quantity, 0);
      await sql`update transfer_lines t set received = t.received + l.quantity
        from jsonb_to_recordset(${JSON.stringify(d.lines)}::jsonb) as l ("itemId" uuid, quantity int)
        where t.transfer_id = ${id} and t.item_id = l."itemId"`.execute(trx);
      await sql`update transfers set received = received + ${units}, ${settled(event, d.remaining)}, ${touched(event)}
        where id = ${id}`.execute(trx);
    }),
    TransferLineWrittenOff: logged(async (event: StoredEvent<Data<'TransferLineWrittenOff'>>, trx) => {
      const id = transferIdOf(event.streamId);
      const d = event.data;
      await sql`update transfer_lines set written_off = written_off + ${d.quantity}
        where transfer_id = ${id} and item_id = ${d.itemId}`.execute(trx);
      await sql`update transfers set written_off = written_off + ${d.quantity}, ${settled(event, d.remaining)},
          ${touched(event)}
        where id = ${id}`.execute(trx);
    }),
    TransferCancelled: logged(async (event, trx) => {
      await sql`update transfers set status = 'cancelled', closed_at = ${event.createdAt}, ${touched(event)}
        where id = ${transferIdOf(event.streamId)}`.execute(trx);
    }),
    TransferShipmentUndone: logged(async (event, trx) => {
      await sql`update transfers set status = 'draft', in_transit = 0, shipped_at = null, closed_at = null, ${touched(event)}
        where id = ${transferIdOf(event.streamId)}`.execute(trx);
    }),
    // The counts go down first, in their own statement: the status is read from them after.
    TransferReceiptUndone: logged(async (event: StoredEvent<Data<'TransferReceiptUndone'>>, trx) => {
      const id = transferIdOf(event.streamId);
      const d = event.data;
      const units = d.lines.reduce((sum, l) => sum + l.quantity, 0);
      await sql`update transfer_lines t set received = t.received - l.quantity
        from jsonb_to_recordset(${JSON.stringify(d.lines)}::jsonb) as l ("itemId" uuid, quantity int)
        where t.transfer_id = ${id} and t.item_id = l."itemId"`.execute(trx);
      await sql`update transfers set received = received - ${units} where id = ${id}`.execute(trx);
      await sql`update transfers set ${reopened(d.remaining)}, ${touched(event)} where id = ${id}`.execute(trx);
    }),
    TransferWriteOffUndone: logged(async (event: StoredEvent<Data<'TransferWriteOffUndone'>>, trx) => {
      const id = transferIdOf(event.streamId);
      const d = event.data;
      await sql`update transfer_lines set written_off = written_off - ${d.quantity}
        where transfer_id = ${id} and item_id = ${d.itemId}`.execute(trx);
      await sql`update transfers set written_off = written_off - ${d.quantity} where id = ${id}`.execute(trx);
      await sql`update transfers set ${reopened(d.remaining)}, ${touched(event)} where id = ${id}`.execute(trx);
    }),
  },
};
