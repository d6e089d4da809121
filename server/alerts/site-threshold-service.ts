// Sets or clears an item's own low-stock threshold at a site: one command on the item's
// stream (SiteThresholdSet, and the crossings per site it causes), decided on the item's
// row, locked the way its other commands lock it, and the site as it is now.
import { sql } from 'kysely';
import { itemStream } from '../../shared/inventory-events.js';
import type { ItemSiteThresholds } from '../../shared/site-low-stock.js';
import type { EventStore } from '../eventstore/event-store.js';
import { handleCommand } from '../eventstore/handle-command.js';
import type { EventMetadata, Transaction } from '../eventstore/types.js';
import { setSiteThreshold, type ThresholdSite } from '../inventory/decide.js';
import { rowToState } from '../inventory/item-rows.js';
import { lockItem } from '../inventory/item-service.js';
import type { SiteThresholdQueries } from './site-threshold-queries.js';

async function siteOf(trx: Transaction, siteId: string): Promise<ThresholdSite | null> {
  const rows = await sql<ThresholdSite>`select id::text as id, name, archived_at is not null as archived
    from sites where id = ${siteId}`.execute(trx);
  return rows.rows[0] ?? null;
}

export class SiteThresholdService {
  constructor(
    private readonly store: EventStore,
    private readonly queries: SiteThresholdQueries,
  ) {}

  /** The item's own threshold at the site (null clears it); answers the item's thresholds per site. */
  async set(
    itemId: string,
    siteId: string,
    threshold: number | null,
    metadata: EventMetadata,
    sites: 'all' | readonly string[] = 'all',
  ): Promise<ItemSiteThresholds> {
    await handleCommand(
      this.store,
      {
        stream: itemStream(itemId),
        load: async (trx) => ({ row: await lockItem(trx, itemId), site: await siteOf(trx, siteId) }),
        decide: ({ row, site }) => setSiteThreshold({ siteId, threshold }, row && rowToState(row), site),
        version: ({ row }) => Number(row!.version),
      },
      metadata,
    );
    return this.queries.forItem(itemId, sites);
  }

  /** The name a refusal at the site shows. */
  async siteName(siteId: string): Promise<string> {
    const rows = await sql<{ name: string }>`select name from sites where id = ${siteId}`.execute(this.store.db);
    return rows.rows[0]?.name ?? 'this site';
  }
}
