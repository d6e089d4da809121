// The stock handler: adjustments and moves. They come in bursts, so they run on the event
// store's batched handler (eventstore/batched-commands.ts): commands of an item that arrive
// while its transaction is in flight go together in the next one. Per batch, in one
// transaction:
//   load:   the items' rows, locked, as their state (below), with the locations the commands
//           name and the default location of each caller's site (places-sql.ts);
//   decide: each command in order (recordStockChange, pure, at the command's moment), on the
//           state the one before left (evolveItem, the item's one fold, levels included);
//   append: every event, each item at the version it was loaded at, in one statement.
// Its answer is the item as its command left it.
import { sql } from 'kysely';
import type { Item } from '../../shared/inventory.js';
import { itemStream, type InventoryEvent } from '../../shared/inventory-events.js';
import { NotFoundError } from '../errors.js';
import type { BatchedAggregate } from '../eventstore/batched-commands.js';
import { isMove, recordStockChange, type StockCommand } from './decide.js';
import { itemStateColumns, rowToState, stateToItem, type ItemRow } from './item-rows.js';
import { evolveItem, type ItemState } from './item-state.js';
import { placesColumn, placesIn } from './places-sql.js';

export const adjustingItems: BatchedAggregate<ItemRow, ItemState, StockCommand, InventoryEvent, Item> = {
  stream: itemStream,
  // An item's row in the items projection is its state, stored: the fields evolveItem folds,
  // and its stock_levels rows as its levels, kept in the same transaction as every append (the
  // projection's set-based SQL form is property-tested against its handlers), so no stream is
  // replayed. Locked, it stays that until the batch commits; within the batch, evolveItem
  // carries it forward. The places column is the same on every row (one subquery per batch).
  lock: (ids, alongside, commands) => {
    const named = commands.flatMap((c) => (isMove(c) ? [c.fromLocationId, c.toLocationId] : [c.locationId]));
    const sites = commands.flatMap((c) => (!isMove(c) && c.locationId === undefined && c.siteId ? [c.siteId] : []));
    return sql<ItemRow>`select ${sql.raw(itemStateColumns)}, ${placesColumn(named, sites)} ${alongside} from items
      where id in (${sql.join(ids)}) order by id for update`;
  },
  // The levels are read from stock_levels by the lock statement: a transfer, count or revert
  // holding an item's row would leave them as they were before it committed (batched-commands.ts).
  prelock: (ids) => sql`select id from items where id in (${sql.join(ids)}) order by id for update`,
  state: rowToState,
  missing: () => new NotFoundError('Item not found'),
  decide: (command, state, now, row) => recordStockChange(command, state, now, placesIn(row)),
  evolve: evolveItem,
  answer: (state, row) => stateToItem(state, row.category_name),
};
