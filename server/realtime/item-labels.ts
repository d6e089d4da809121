// Name and SKU for low-stock alerts. ItemWentLow only carries quantity and threshold, so
// the label comes from the items projection (one query per read batch); an item the
// projection lacks (deleted since, or no projection yet) is labelled from its own stream.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { EventStore } from '../eventstore/event-store.js';

export interface ItemLabel {
  name: string;
  sku: string;
  /** Watched per site (shared/site-low-stock.ts): its alerts are those per site, not its total's. */
  watched?: boolean;
}

/**
 * Labels of items by id; `siteNames`, where given, names sites for alerts per site (null in a
 * store of one active site, whose alerts name none).
 */
export type ItemLabels = ((itemIds: string[]) => Promise<Map<string, ItemLabel>>) & {
  siteNames?: (siteIds: string[]) => Promise<Map<string, string> | null>;
};

const UNDEFINED_TABLE = '42P01';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function itemIdOfStream(streamId: string): string {
  return streamId.startsWith('item-') ? streamId.slice('item-'.length) : streamId;
}

export function createItemLabels(db: Kysely<DB>, store: EventStore): ItemLabels {
  const labels: ItemLabels = async (itemIds) => {
    const found = new Map<string, ItemLabel>();
    if (itemIds.length === 0) return found;
    const uuids = itemIds.filter((id) => UUID.test(id));
    try {
      if (uuids.length > 0) {
        const rows = await sql<{
          id: string;
          name: string;
          sku: string;
          watched: boolean;
        }>`select id::text as id, name, sku,
            (site_thresholds <> '{}'::jsonb
              or (select count(distinct l.site_id) from stock_levels l where l.item_id = items.id) > 1) as watched
          from items where id in (${sql.join(uuids.map((id) => sql`${id}::uuid`))})`.execute(db);
        for (const row of rows.rows) found.set(row.id, { name: row.name, sku: row.sku, watched: row.watched });
      }
    } catch (error) {
      if ((error as { code?: string }).code !== UNDEFINED_TABLE) throw error;
    }
    for (const id of itemIds) {
      if (!found.has(id)) found.set(id, await labelFromStream(store, id));
    }
    return found;
  };
  labels.siteNames = async (siteIds) => {
    const uuids = siteIds.filter((id) => UUID.test(id));
    if (uuids.length === 0) return new Map();
    const rows = await sql<{ id: string; name: string; several: boolean }>`select id::text as id, name,
        (select count(*) > 1 from sites where archived_at is null) as several
      from sites where id in (${sql.join(uuids.map((id) => sql`${id}::uuid`))})`.execute(db);
    if (!rows.rows[0]?.several) return null;
    return new Map(rows.rows.map((r) => [r.id, r.name]));
  };
  return labels;
}

async function labelFromStream(store: EventStore, itemId: string): Promise<ItemLabel> {
  const label: ItemLabel = { name: '', sku: '' };
  for (const event of await store.readStream(`item-${itemId}`)) {
    const data = event.data as { name?: string; sku?: string; changes?: Record<string, { to?: unknown }> };
    if (event.type === 'ItemCreated' || event.type === 'ItemDeleted') {
      if (typeof data.name === 'string') label.name = data.name;
      if (typeof data.sku === 'string') label.sku = data.sku;
    } else if (event.type === 'ItemUpdated') {
      if (typeof data.changes?.name?.to === 'string') label.name = data.changes.name.to;
      if (typeof data.changes?.sku?.to === 'string') label.sku = data.changes.sku.to;
    }
  }
  return label;
}
