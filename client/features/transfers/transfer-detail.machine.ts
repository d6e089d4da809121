// A transfer's page: the transfer with its lines, kept live through its stream's events
// (transfer-live.ts), the locations (where to receive), and its steps as writes: a refused
// step stays, with its message, for the page or its dialog to show. A step's toast offers
// Undo of that step (the server's revert of it: a shipment back to a draft, a receipt or a
// write-off back in transit); what the undo changes arrives on the feed like any step.
import type { FeedEvent } from '../../../shared/realtime';
import type { Location } from '../../../shared/sites';
import type { Transfer } from '../../../shared/transfers';
import { createLiveQueryMachine, type FeedEffect } from '../../lib/live-query.machine';
import { withUndo } from '../../components/undo';
import { toast } from '../../lib/toasts';
import { transfersApi, type TransferWrite } from './api';
import { applyTransferAnswer, applyTransferEvent, transferIdOfStream } from './transfer-live';

export interface TransferDetailData {
  transfer: Transfer;
  locations: Location[];
}

export interface TransferParams {
  id: string;
}

const concerns = (event: FeedEvent, params: TransferParams) =>
  (event.streamType === 'transfer' && transferIdOfStream(event.stream) === params.id) ||
  event.streamType === 'location';

function doneMessage(transfer: Transfer, write: TransferWrite): string {
  const name = `Transfer #${transfer.number}`;
  switch (write.kind) {
    case 'ship':
      return `${name} shipped: ${transfer.inTransit} in transit`;
    case 'receive':
      return transfer.inTransit > 0 ? `Received; ${transfer.inTransit} still in transit` : `${name} received`;
    case 'write-off':
      return transfer.inTransit > 0 ? `Written off; ${transfer.inTransit} still in transit` : `${name} closed`;
    case 'cancel':
      return `${name} cancelled`;
  }
}

const units = (n: number) => `${n} ${n === 1 ? 'unit' : 'units'}`;

/** What the toast's Undo button names: "Undo shipment of transfer #3". */
export function undoLabel(write: Exclude<TransferWrite, { kind: 'cancel' }>): string {
  const which = `transfer #${write.number}`;
  switch (write.kind) {
    case 'ship':
      return `shipment of ${which}`;
    case 'receive':
      return `receipt of ${units(write.body.lines.reduce((sum, l) => sum + l.quantity, 0))} on ${which}`;
    case 'write-off':
      return `write-off on ${which}`;
  }
}

export const transferDetailMachine = createLiveQueryMachine<TransferDetailData, TransferParams, TransferWrite>({
  id: 'transferDetail',
  load: async ({ id }) => {
    const [transfer, locations] = await Promise.all([transfersApi.get(id), transfersApi.locations()]);
    return { transfer, locations };
  },
  reduce: (draft, event, params): FeedEffect => {
    if (!concerns(event, params)) return 'ignored';
    // A location renamed or archived: where stock can go, and the lines' names, read again.
    if (event.streamType === 'location') return 'refetch';
    return applyTransferEvent(draft.transfer, event);
  },
  concerns,
  // A shipment's, a receipt's or a write-off's toast carries Undo of exactly that step.
  runWrite: (write, { id }) =>
    write.kind === 'cancel'
      ? transfersApi.write(id, write)
      : withUndo(
          (key) => transfersApi.write(id, write, key),
          (result) => doneMessage(result, write),
          undoLabel(write),
        ),
  applyWrite: (draft, _write, result) => applyTransferAnswer(draft.transfer, result as Transfer),
  onWriteDone: (write, result) => {
    if (write.kind === 'cancel') toast.success(doneMessage(result as Transfer, write));
  },
  loadErrorMessage: 'Failed to load the transfer',
});
