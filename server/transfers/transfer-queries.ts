// Reads of the transfers projection: the list (newest first, by status and site) and one
// transfer with its lines, their items and locations named as they are now. Only transfers
// from or to a site the reader may see.
import { sql, type Kysely } from 'kysely';
import type { Transfer, TransferStatus, TransferSummary } from '../../shared/transfers.js';
import { NotFoundError } from '../errors.js';
import {
  toTransfer,
  toTransferSummary,
  transferColumns,
  type TransferLineRow,
  type TransferRow,
} from './transfer-rows.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TransferFilter {
  /** A status, `open` (not received and not cancelled) or `in-transit` (shipped, not all received). */
  status?: TransferStatus | 'open' | 'in-transit';
  /** From or to this site. */
  siteId?: string;
  limit?: number;
}

/** The sites a reader may see: 'all', or their ids (server/auth/site-access.ts visibleSites). */
export type VisibleSites = 'all' | readonly string[];

const withSiteNames = sql`left join sites fs on fs.id = t.from_site_id left join sites ts on ts.id = t.to_site_id`;
const siteNameColumns = sql`fs.name as from_site_name, ts.name as to_site_name`;

function visibleTo(sites: VisibleSites) {
  if (sites === 'all') return sql`true`;
  if (sites.length === 0) return sql`false`;
  const ids = sql.join(sites.map((id) => sql`${id}::uuid`));
  return sql`(t.from_site_id in (${ids}) or t.to_site_id in (${ids}))`;
}

export class TransferQueries {
  constructor(private readonly db: Kysely<any>) {}

  async list(filter: TransferFilter, sites: VisibleSites): Promise<TransferSummary[]> {
    const status =
      filter.status === undefined
        ? sql`true`
        : filter.status === 'open'
          ? sql`t.status in ('draft', 'shipped', 'partly-received')`
          : filter.status === 'in-transit'
            ? sql`t.status in ('shipped', 'partly-received')`
            : sql`t.status = ${filter.status}`;
    const site = filter.siteId
      ? sql`(t.from_site_id = ${filter.siteId}::uuid or t.to_site_id = ${filter.siteId}::uuid)`
      : sql`true`;
    const rows = await sql<TransferRow>`select ${sql.raw(transferColumns)}, ${siteNameColumns}
      from transfers t ${withSiteNames}
      where ${status} and ${site} and ${visibleTo(sites)}
      order by t.number desc limit ${filter.limit ?? 200}`.execute(this.db);
    return rows.rows.map(toTransferSummary);
  }

  async get(id: string, sites: VisibleSites): Promise<Transfer> {
    if (!UUID.test(id)) throw new NotFoundError('Transfer not found');
    const [header, lines] = await Promise.all([
      sql<TransferRow>`select ${sql.raw(transferColumns)}, ${siteNameColumns}
        from transfers t ${withSiteNames} where t.id = ${id}::uuid and ${visibleTo(sites)}`.execute(this.db),
      sql<TransferLineRow>`select l.item_id::text as item_id, l.from_location_id::text as from_location_id, l.quantity,
          l.received, l.written_off, i.name as item_name, i.sku, loc.name as from_location_name
        from transfer_lines l left join items i on i.id = l.item_id left join locations loc on loc.id = l.from_location_id
        where l.transfer_id = ${id}::uuid order by l.line_no`.execute(this.db),
    ]);
    const row = header.rows[0];
    if (!row) throw new NotFoundError('Transfer not found');
    return toTransfer(row, lines.rows);
  }
}
