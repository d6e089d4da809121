// A transfer's page: the transfer with its lines, kept live through its stream's events
// (transfer-live.ts), the locations (where to receive), and its steps as writes: a refused
// step stays, with its message, for the page or its dialog to show.
import type { FeedEvent } from '../../../shared/realtime';
import type { Location } from '../../../shared/sites';
import type { Transfer } from '../../../shared/transfers';
import { createLiveQueryMachine, type FeedEffect } from '../../lib/live-query.machine';
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
  runWrite: (write, { id }) => transfersApi.write(id, write),
  applyWrite: (draft, _write, result) => applyTransferAnswer(draft.transfer, result as Transfer),
  onWriteDone: (write, result) => toast.success(doneMessage(result as Transfer, write)),
  loadErrorMessage: 'Failed to load the transfer',
});
