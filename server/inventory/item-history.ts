// Turns an item's stored events into history entries: who, when, why, and field-by-field changes.
import type { FieldChange, HistoryEntry } from '../../shared/inventory.js';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import type { StoredEvent } from '../eventstore/types.js';
import { importedFrom } from '../../shared/import.js';

export function historyEntry(stored: StoredEvent): HistoryEntry | null {
  const event = { type: stored.type, data: stored.data } as InventoryEvent;
  const base = {
    version: stored.streamVersion,
    actor: stored.metadata.actor,
    timestamp: stored.createdAt.toISOString(),
    reason: null,
    // A CSV import's changes say where they came from, so the history tells them from hand edits.
    note: stored.metadata.importFile ? importedFrom(stored.metadata.importFile) : null,
    delta: null,
  };
  switch (event.type) {
    case 'ItemCreated': {
      // Where its stock is shows as the entry's location (history-locations.ts), not as a field.
      const { itemId: _id, locationId: _at, levels: _levels, ...fields } = event.data;
      const changes: FieldChange[] = Object.entries(fields).map(([field, to]) => ({ field, from: null, to }));
      return { ...base, type: 'ItemCreated', changes };
    }
    case 'ItemUpdated':
      return {
        ...base,
        type: 'ItemUpdated',
        // Sorted by field: jsonb does not keep the order the fields were written in.
        changes: Object.entries(event.data.changes)
          .map(([field, c]) => ({ field, from: c!.from, to: c!.to }))
          .sort((a, b) => a.field.localeCompare(b.field)),
      };
    case 'StockAdjusted':
      return {
        ...base,
        type: 'StockAdjusted',
        reason: event.data.reason,
        note: event.data.note ?? base.note,
        delta: event.data.delta,
        countedBy: stored.metadata.countedBy?.name ?? null,
        changes: [{ field: 'quantity', from: event.data.quantity - event.data.delta, to: event.data.quantity }],
      };
    case 'StockMoved':
      // The locations' names are put on by history-locations.ts.
      return { ...base, type: 'StockMoved', note: event.data.note ?? base.note, changes: [] };
    case 'StockShipped':
    case 'StockReceived': {
      // The location's name and the transfer's number are put on by history-locations.ts.
      const delta = event.type === 'StockShipped' ? -event.data.quantity : event.data.quantity;
      return {
        ...base,
        type: event.type,
        delta,
        changes: [{ field: 'quantity', from: event.data.quantityAfter - delta, to: event.data.quantityAfter }],
        transfer: { id: event.data.transferId, number: null, quantity: event.data.quantity },
      };
    }
    case 'TransitWrittenOff':
      return {
        ...base,
        type: 'TransitWrittenOff',
        note: event.data.reason,
        changes: [],
        transfer: { id: event.data.transferId, number: null, quantity: event.data.quantity, reason: event.data.reason },
      };
    case 'ItemDeleted':
      return { ...base, type: 'ItemDeleted', changes: [] };
    case 'ItemWentLow':
    case 'ItemRecovered':
    case 'SiteWentLow':
    case 'SiteRecovered':
      return null; // derived from the adjustment beside it; alerts show these
    case 'SiteThresholdSet':
      return null; // a setting of the item at a site: the activity log and the item's thresholds show it
  }
}
