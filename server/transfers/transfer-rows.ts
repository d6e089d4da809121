// Rows of the transfers tables mapped to a transfer's state and to the API's shapes (the one
// place this happens).
import type { FoldedTransfer, Transfer, TransferStatus, TransferSummary } from '../../shared/transfers.js';
import { lineInTransit } from '../../shared/transfers.js';

export interface TransferRow {
  id: string;
  number: number;
  from_site_id: string;
  to_site_id: string;
  note: string | null;
  status: TransferStatus;
  line_count: number;
  units: number;
  received: number;
  written_off: number;
  in_transit: number;
  created_by: string;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  shipped_at: Date | string | null;
  closed_at: Date | string | null;
  /** Read by the queries, with the sites' names. */
  from_site_name?: string | null;
  to_site_name?: string | null;
}

export interface TransferLineRow {
  item_id: string;
  from_location_id: string;
  quantity: number;
  received: number;
  written_off: number;
  item_name?: string | null;
  sku?: string | null;
  from_location_name?: string | null;
}

export const transferColumns = `t.id::text as id, t.number, t.from_site_id::text as from_site_id,
  t.to_site_id::text as to_site_id, t.note, t.status, t.line_count, t.units, t.received, t.written_off, t.in_transit,
  t.created_by, t.version, t.created_at, t.updated_at, t.shipped_at, t.closed_at`;

const date = (d: Date | string) => (d instanceof Date ? d : new Date(d));
const iso = (d: Date | string) => date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

export function toTransferState(row: TransferRow, lines: TransferLineRow[]): FoldedTransfer<Date> {
  return {
    id: row.id,
    number: Number(row.number),
    fromSiteId: row.from_site_id,
    toSiteId: row.to_site_id,
    note: row.note,
    status: row.status,
    lines: lines.map((l) => ({
      itemId: l.item_id,
      fromLocationId: l.from_location_id,
      quantity: Number(l.quantity),
      received: Number(l.received),
      writtenOff: Number(l.written_off),
    })),
    version: Number(row.version),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    shippedAt: row.shipped_at === null ? null : date(row.shipped_at),
    closedAt: row.closed_at === null ? null : date(row.closed_at),
  };
}

export function toTransferSummary(row: TransferRow): TransferSummary {
  return {
    id: row.id,
    number: Number(row.number),
    fromSiteId: row.from_site_id,
    fromSiteName: row.from_site_name ?? 'a removed site',
    toSiteId: row.to_site_id,
    toSiteName: row.to_site_name ?? 'a removed site',
    note: row.note,
    status: row.status,
    lineCount: Number(row.line_count),
    units: Number(row.units),
    received: Number(row.received),
    writtenOff: Number(row.written_off),
    inTransit: Number(row.in_transit),
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    shippedAt: isoOrNull(row.shipped_at),
    closedAt: isoOrNull(row.closed_at),
    version: Number(row.version),
  };
}

export function toTransfer(row: TransferRow, lines: TransferLineRow[]): Transfer {
  const summary = toTransferSummary(row);
  return {
    ...summary,
    lines: lines.map((l) => {
      const line = {
        itemId: l.item_id,
        fromLocationId: l.from_location_id,
        quantity: Number(l.quantity),
        received: Number(l.received),
        writtenOff: Number(l.written_off),
      };
      return {
        ...line,
        itemName: l.item_name ?? 'a deleted item',
        sku: l.sku ?? '',
        fromLocationName: l.from_location_name ?? 'a removed location',
        inTransit: lineInTransit(line, summary.status),
      };
    }),
  };
}
