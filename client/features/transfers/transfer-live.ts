// A transfer on screen, kept live: the feed's events of its stream folded in by the same fold
// the server decides with (shared/transfers.ts), and the API's derived fields (units in transit
// per line and in all, received and written off) worked out again from what the fold left.
import type { Draft } from 'immer';
import type { FeedEvent } from '../../../shared/realtime';
import {
  evolveTransfer,
  lineInTransit,
  transferInTransit,
  type FoldedTransfer,
  type Transfer,
  type TransferEvent,
} from '../../../shared/transfers';
import type { FeedEffect } from '../../lib/live-query.machine';

export const transferIdOfStream = (stream: string) =>
  stream.startsWith('transfer-') ? stream.slice('transfer-'.length) : null;

const foldedOf = (t: Transfer): FoldedTransfer<string> => ({
  id: t.id,
  number: t.number,
  fromSiteId: t.fromSiteId,
  toSiteId: t.toSiteId,
  note: t.note,
  status: t.status,
  lines: t.lines.map(({ itemId, fromLocationId, quantity, received, writtenOff }) => ({
    itemId,
    fromLocationId,
    quantity,
    received,
    writtenOff,
  })),
  version: t.version,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
  shippedAt: t.shippedAt,
  closedAt: t.closedAt,
});

/** One event of the transfer's own stream onto the screen's transfer: in order, or read again. */
export function applyTransferEvent(transfer: Draft<Transfer>, event: FeedEvent): FeedEffect {
  if (transferIdOfStream(event.stream) !== transfer.id) return 'ignored';
  if (event.version <= transfer.version) return 'ignored';
  if (event.version !== transfer.version + 1) return 'refetch';
  const next = evolveTransfer(foldedOf(transfer as Transfer), { type: event.type, data: event.data } as TransferEvent, {
    version: event.version,
    at: event.time,
  });
  if (!next) return 'refetch';
  transfer.status = next.status;
  transfer.version = next.version;
  transfer.updatedAt = next.updatedAt ?? transfer.updatedAt;
  transfer.shippedAt = next.shippedAt;
  transfer.closedAt = next.closedAt;
  next.lines.forEach((line, i) => {
    const shown = transfer.lines[i]!;
    shown.received = line.received;
    shown.writtenOff = line.writtenOff;
    shown.inTransit = lineInTransit(line, next.status);
  });
  transfer.received = next.lines.reduce((sum, l) => sum + l.received, 0);
  transfer.writtenOff = next.lines.reduce((sum, l) => sum + l.writtenOff, 0);
  transfer.inTransit = transferInTransit(next);
  return 'applied';
}

/** A step's answer in place of what the screen holds, unless the screen is newer already. */
export function applyTransferAnswer(transfer: Draft<Transfer>, answer: Transfer): FeedEffect {
  if (answer.id !== transfer.id || answer.version <= transfer.version) return 'ignored';
  Object.assign(transfer, answer);
  return 'applied';
}
