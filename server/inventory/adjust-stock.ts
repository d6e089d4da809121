// The stock adjustment handler. Adjustments come in bursts, so they run on the event store's
// batched handler (eventstore/batched-commands.ts): adjustments of an item that arrive while
// its transaction is in flight go together in the next one. Per batch, in one transaction:
//   load:   the items' rows, locked, as their state (below);
//   decide: each adjustment in order (recordAdjustment, pure, at the adjustment's moment),
//           on the state the one before left (evolveItem, the item's one fold);
//   append: every event, each item at the version it was loaded at, in one statement.
// Its answer is the item as its adjustment left it.
import { sql } from 'kysely';
import type { Item } from '../../shared/inventory.js';
import { itemStream, type InventoryEvent } from '../../shared/inventory-events.js';
import { NotFoundError } from '../errors.js';
import type { BatchedAggregate } from '../eventstore/batched-commands.js';
import { recordAdjustment, type AdjustStock } from './decide.js';
import { itemColumns, rowToState, stateToItem, type ItemRow } from './item-rows.js';
import { evolveItem, type ItemState } from './item-state.js';

export const adjustingItems: BatchedAggregate<ItemRow, ItemState, AdjustStock, InventoryEvent, Item> = {
  stream: itemStream,
  // An item's row in the items projection is its state, stored: the fields evolveItem folds,
  // kept in the same transaction as every append (the projection's set-based SQL form is
  // property-tested against its handlers), so no stream is replayed. Locked, it stays that
  // until the batch commits; within the batch, evolveItem carries it forward.
  lock: (ids, alongside) => sql<ItemRow>`select ${sql.raw(itemColumns)} ${alongside} from items
    where id in (${sql.join(ids)}) order by id for update`,
  state: rowToState,
  missing: () => new NotFoundError('Item not found'),
  decide: recordAdjustment,
  evolve: evolveItem,
  answer: (state, row) => stateToItem(state, row.category_name),
};
