// The state an item's decisions are made on, and how events fold into it (for history,
// as-of reads and tests; live decisions read the same state from the items projection).
import type { InventoryEvent, ItemFields } from '../../shared/inventory-events.js';

export interface ItemState extends ItemFields {
  id: string;
  version: number;
  deleted: boolean;
  createdAt: Date | null;
  updatedAt: Date | null;
}

export function evolveItem(
  state: ItemState | null,
  event: InventoryEvent,
  meta: { version: number; at: Date; streamId: string },
): ItemState | null {
  switch (event.type) {
    case 'ItemCreated': {
      const { itemId, ...fields } = event.data;
      return { ...fields, barcode: fields.barcode ?? null, id: itemId, version: meta.version, deleted: false, createdAt: meta.at, updatedAt: meta.at };
    }
    case 'ItemUpdated': {
      if (!state) return state;
      const next: ItemState = { ...state, version: meta.version, updatedAt: meta.at };
      for (const [field, change] of Object.entries(event.data.changes)) {
        (next as unknown as Record<string, unknown>)[field] = change!.to;
      }
      return next;
    }
    case 'StockAdjusted':
      return state && { ...state, quantity: event.data.quantity, version: meta.version, updatedAt: meta.at };
    case 'ItemWentLow':
    case 'ItemRecovered':
      return state && { ...state, version: meta.version };
    case 'ItemDeleted':
      return state && { ...state, deleted: true, version: meta.version, updatedAt: meta.at };
  }
}
