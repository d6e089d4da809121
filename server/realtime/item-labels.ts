// Name and SKU for low-stock alerts. ItemWentLow only carries quantity and threshold, so
// the label comes from the items projection (one query per read batch); an item the
// projection lacks (deleted since, or no projection yet) is labelled from its own stream.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { EventStore } from '../eventstore/event-store.js';

export interface ItemLabel {
  name: string;
  sku: string;
}

export type ItemLabels = (itemIds: string[]) => Promise<Map<string, ItemLabel>>;

const UNDEFINED_TABLE = '42P01';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function itemIdOfStream(streamId: string): string {
  return streamId.startsWith('item-') ? streamId.slice('item-'.length) : streamId;
}

export function createItemLabels(db: Kysely<DB>, store: EventStore): ItemLabels {
  return async (itemIds) => {
    const labels = new Map<string, ItemLabel>();
    if (itemIds.length === 0) return labels;
    const uuids = itemIds.filter((id) => UUID.test(id));
    try {
      if (uuids.length > 0) {
        const rows = await sql<{ id: string; name: string; sku: string }>`select id::text as id, name, sku from items
          where id in (${sql.join(uuids.map((id) => sql`${id}::uuid`))})`.execute(db);
        for (const row of rows.rows) labels.set(row.id, { name: row.name, sku: row.sku });
      }
    } catch (error) {
      if ((error as { code?: string }).code !== UNDEFINED_TABLE) throw error;
    }
    for (const id of itemIds) {
      if (!labels.has(id)) labels.set(id, await labelFromStream(store, id));
    }
    return labels;
  };
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
