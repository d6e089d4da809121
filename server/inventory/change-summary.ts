// An item or category change in a few words ("Adjusted stock of Hose by -5 (sale)"): what
// a revert's "Reverted: ..." repeats in the item history and the revert dialog.
import type { StoredEvent } from '../eventstore/types.js';

/** A delta with its sign: +3, -5. */
export const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The change in words: what "Reverted: ..." repeats. */
export function describeChange(event: StoredEvent, name: string): string {
  const d = event.data as Record<string, any>;
  switch (event.type) {
    case 'StockAdjusted':
      return `Adjusted stock of ${name} by ${signed(d.delta)} (${d.reason})`;
    case 'StockMoved':
      return `Moved ${d.quantity} of ${name} between locations`;
    // A transfer's steps on the item (their undoing is told by the step it undid).
    case 'StockShipped':
      return `Shipped ${d.quantity} of ${name} on a transfer`;
    case 'StockReceived':
      return `Received ${d.quantity} of ${name} from a transfer`;
    case 'TransitWrittenOff':
      return `Wrote off ${d.quantity} of ${name} in transit`;
    case 'ItemUpdated':
      return `Updated ${name}: ${Object.keys(d.changes).sort().join(', ')}`;
    case 'ItemCreated':
      return `Created ${name}`;
    case 'ItemDeleted':
      return `Deleted ${name}`;
    case 'CategoryCreated':
      return `Created category ${name}`;
    case 'CategoryUpdated':
      return `Updated category ${name}: ${Object.keys(d.changes).sort().join(', ')}`;
    case 'CategoryDeleted':
      return `Deleted category ${name}`;
    default:
      return `${event.type} ${name}`;
  }
}
