// Random inventory histories written the way the app writes them, for property tests of the
// projections. A history is a list of abstract steps (what fast-check generates and shrinks);
// each step becomes commands decided by the app's own decisions on the state folded so far,
// appended in a transaction of its own, in one of the shapes the app's appends have: an API
// create or edit, a CSV import's batch (creations and edits of distinct items), the group
// commit's adjustments (several per item, on several items), moves between locations (alone
// or with adjustments, as the stock handler batches them), a transfer between sites (drafted,
// shipped, partly received, the rest written off: each step its own append with the items'
// events, as transfer-service.ts appends it; at times one step undone right after, as
// transfer-undo.ts appends it), a stocktake's counts, a delete,
// a revert of an earlier command, category changes, an alert dismissal. Stock is put at the
// locations the writer is given (none: where stock was before places). A step that the app
// would refuse (stock below 0 at a location, a SKU taken, a category not empty...) writes nothing.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { AdjustReason } from '../../shared/inventory.js';
import { categoryStream, itemStream, type InventoryEvent, type ItemFields } from '../../shared/inventory-events.js';
import { alertStream } from '../../shared/alerts.js';
import { evolveCategory, type FoldedCategory } from '../../shared/inventory-fold.js';
import { DomainError } from '../../server/errors.js';
import type { EventStore, StreamBatch } from '../../server/eventstore/event-store.js';
import type { EventMetadata, StoredEvent } from '../../server/eventstore/types.js';
import { adjustStock, createItem, deleteItem, moveStock, updateItem } from '../../server/inventory/decide.js';
import type { Places, StockPlace } from '../../server/inventory/stock-places.js';
import { evolveItem, type ItemState } from '../../server/inventory/item-state.js';
import { createCategory, deleteCategory, updateCategory } from '../../server/categories/decide.js';
import { revertItemEvent } from '../../server/history/revert-decide.js';
import { decideAlert } from '../../server/alerts/decide.js';
import { evolveTransfer, transferStream, type TransferEvent } from '../../shared/transfers.js';
import { undoTransferStep, type StepToUndo } from '../../server/transfers/undo-decide.js';
import {
  createTransfer,
  receiveTransfer,
  shipTransfer,
  writeOffTransfer,
  type TransferDecision,
  type TransferFacts,
  type TransferState,
} from '../../server/transfers/decide.js';

interface NewItemRow {
  category: number;
  word: number;
  described: boolean;
  quantity: number;
  cents: number;
  threshold: number;
  barcode: boolean;
  expiry: boolean;
  image: boolean;
  /** Where its stock goes (an index into the writer's places). */
  place: number;
}

interface EditRow {
  pick: number;
  name: number | null;
  description: boolean | null;
  sku: boolean;
  cents: number | null;
  threshold: number | null;
  category: number | null;
  quantity: number | null;
  barcode: 'set' | 'remove' | null;
  expiry: 'set' | 'remove' | null;
  image: 'set' | 'remove' | null;
  /** Where a changed quantity is counted. */
  place: number;
}

interface Move {
  pick: number;
  delta: number;
  reason: AdjustReason;
  place: number;
}

/** Units of an item from one location to another. */
interface Relocation {
  pick: number;
  from: number;
  to: number;
  quantity: number;
}

/** A transfer from the site of place `from` to the site of place `to`, and how far it gets. */
interface Shipment {
  from: number;
  to: number;
  lines: Array<{ pick: number; from: number; quantity: number }>;
  /** Of each line, how many are received (beyond what is in transit: all of it). */
  receive: number[];
  writeOff: boolean;
  /** Which step is undone right after it was made (transfer-undo.ts): 1 the shipment (then shipped again), 2 the receipt, 3 the write-off; 0 none. */
  undo: number;
}

export type Step =
  | { kind: 'categories'; count: number }
  | { kind: 'rename-category'; pick: number; word: number; describe: boolean }
  | { kind: 'delete-category'; pick: number }
  | { kind: 'create'; rows: NewItemRow[] }
  | { kind: 'import'; rows: Array<NewItemRow | EditRow> }
  | { kind: 'edit'; row: EditRow }
  | { kind: 'threshold'; pick: number; threshold: number }
  | { kind: 'adjust'; moves: Move[]; prepared: boolean }
  | { kind: 'relocate'; relocations: Relocation[]; moves: Move[] }
  | ({ kind: 'transfer' } & Shipment)
  | { kind: 'stocktake'; counts: Array<{ pick: number; counted: number }> }
  | { kind: 'delete'; pick: number }
  | { kind: 'revert'; pick: number; why: boolean }
  | { kind: 'dismiss'; pick: number; user: number; restore: boolean };

const WORDS = ['hammer', 'blue', 'paint', 'garden', 'hose', 'brass', 'hinge', 'drill', 'bolt', 'tape'];

const newItemRow: fc.Arbitrary<NewItemRow> = fc.record({
  category: fc.nat(4),
  word: fc.nat(WORDS.length - 1),
  described: fc.boolean(),
  quantity: fc.nat(12),
  cents: fc.integer({ min: 0, max: 99_999 }),
  threshold: fc.nat(6),
  barcode: fc.boolean(),
  expiry: fc.boolean(),
  image: fc.boolean(),
  place: fc.nat(7),
});

const setOrRemove = fc.option(fc.constantFrom('set' as const, 'remove' as const));

const editRow: fc.Arbitrary<EditRow> = fc.record({
  pick: fc.nat(),
  name: fc.option(fc.nat(WORDS.length - 1)),
  description: fc.option(fc.boolean()),
  sku: fc.boolean(),
  cents: fc.option(fc.integer({ min: 0, max: 99_999 })),
  threshold: fc.option(fc.nat(8)),
  category: fc.option(fc.nat(4)),
  quantity: fc.option(fc.nat(15)),
  barcode: setOrRemove,
  expiry: setOrRemove,
  image: setOrRemove,
  place: fc.nat(7),
});

const move: fc.Arbitrary<Move> = fc.record({
  pick: fc.nat(),
  delta: fc.integer({ min: -6, max: 8 }).filter((d) => d !== 0),
  reason: fc.constantFrom<AdjustReason>('sale', 'sale', 'restock', 'correction', 'damage', 'count'),
  place: fc.nat(7),
});

const relocation: fc.Arbitrary<Relocation> = fc.record({
  pick: fc.nat(),
  from: fc.nat(7),
  to: fc.nat(7),
  quantity: fc.integer({ min: 1, max: 6 }),
});

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('categories' as const), count: fc.integer({ min: 1, max: 2 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('rename-category' as const),
      pick: fc.nat(),
      word: fc.nat(WORDS.length - 1),
      describe: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-category' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      rows: fc.array(newItemRow, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('import' as const),
      rows: fc.array(fc.oneof(newItemRow, editRow), { minLength: 1, maxLength: 4 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('edit' as const), row: editRow }) },
  // A threshold edited alone: an item goes low or recovers with no stock moved.
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('threshold' as const), pick: fc.nat(), threshold: fc.nat(12) }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      moves: fc.array(move, { minLength: 1, maxLength: 6 }),
      prepared: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('relocate' as const),
      relocations: fc.array(relocation, { minLength: 1, maxLength: 4 }),
      // Adjustments in the same batch as the moves: the stock handler decides both.
      moves: fc.array(move, { maxLength: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      from: fc.nat(7),
      to: fc.nat(7),
      lines: fc.array(fc.record({ pick: fc.nat(), from: fc.nat(3), quantity: fc.integer({ min: 1, max: 4 }) }), {
        minLength: 1,
        maxLength: 3,
      }),
      receive: fc.array(fc.nat(4), { maxLength: 3 }),
      writeOff: fc.boolean(),
      undo: fc.nat(3),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('stocktake' as const),
      counts: fc.array(fc.record({ pick: fc.nat(), counted: fc.nat(15) }), { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('revert' as const), pick: fc.nat(), why: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dismiss' as const),
      pick: fc.nat(),
      user: fc.nat(1),
      restore: fc.boolean(),
    }),
  },
);

/** What each append's events were, by type: a caller tells which set-based forms ran from it. */
export type AppendListener = (types: Set<string>) => void;

interface ItemModel {
  state: ItemState | null;
  events: StoredEvent[];
  /** Position of the ItemWentLow that opened the item's current low-stock episode. */
  lowSince: number | null;
}

const USERS = [
  { uid: 'user-ann', name: 'Ann Manager' },
  { uid: 'user-bo', name: 'Bo Staff' },
];

const isNewRow = (row: NewItemRow | EditRow): row is NewItemRow => !('pick' in row);

/** One history being written: the state folded from what was appended so far. */
export class ItemHistoryWriter {
  private readonly categories = new Map<string, FoldedCategory>();
  private readonly items = new Map<string, ItemModel>();
  /** Earlier commands' item events (crossings left out), as a revert finds them. */
  private readonly commands: StoredEvent[][] = [];
  private readonly reverted = new Set<string>();
  /** Dismissed episodes by `uid item`. */
  private readonly dismissed = new Map<string, number>();
  private counter = 0;
  /** Transfers drafted so far: the next one's number. */
  private transfers = 0;
  /** The events the last append stored, in order. */
  private appended: StoredEvent[] = [];

  constructor(
    private readonly store: EventStore,
    private readonly onAppend: AppendListener = () => {},
    /** Where stock may be (none: the main location, as before places). */
    private readonly places: StockPlace[] = [],
  ) {}

  /** The place at index `n` (none without places). */
  private placeAt(n: number): StockPlace | undefined {
    return this.pick(this.places, n);
  }

  private placesByid(): Places {
    return { locations: Object.fromEntries(this.places.map((p) => [p.id, p])), defaults: {} };
  }

  async write(steps: Step[]): Promise<void> {
    for (const step of steps) {
      try {
        await this.run(step);
      } catch (error) {
        // Refused as the app would refuse it: nothing was written.
        if (!(error instanceof DomainError)) throw error;
      }
    }
  }

  private next = () => ++this.counter;

  private liveCategories = () => [...this.categories.values()].filter((c) => !c.deleted);

  private liveItems = () =>
    [...this.items.values()].map((m) => m.state).filter((s): s is ItemState => !!s && !s.deleted);

  private pick<T>(list: T[], n: number): T | undefined {
    return list.length ? list[n % list.length] : undefined;
  }

  private meta(extra: Partial<EventMetadata> = {}): EventMetadata {
    return { actor: USERS[this.counter % USERS.length]!, correlationId: randomUUID(), ...extra };
  }

  private takenBy(field: 'sku' | 'barcode', value: string | null, itemId: string): boolean {
    if (value === null) return false;
    const same = (a: string) => (field === 'sku' ? a.toLowerCase() === value.toLowerCase() : a === value);
    return this.liveItems().some((s) => s.id !== itemId && s[field] !== null && same(s[field]!));
  }

  private newFields(row: NewItemRow): ItemFields | null {
    const category = this.pick(this.liveCategories(), row.category);
    if (!category) return null;
    const n = this.next();
    return {
      name: `${WORDS[row.word]} ${n}`,
      description: row.described ? `sturdy ${WORDS[(row.word + 3) % WORDS.length]}` : '',
      sku: `SKU-${n}`,
      categoryId: category.id,
      quantity: row.quantity,
      price: row.cents / 100,
      threshold: row.threshold,
      imageUrl: row.image ? `https://img.example.com/${n}.png` : null,
      expiryDate: row.expiry ? `2031-0${(n % 9) + 1}-1${n % 10}` : null,
      barcode: row.barcode ? `TAG ${WORDS[(row.word + 5) % WORDS.length]} ${n}` : null,
    };
  }

  private editChanges(row: EditRow, state: ItemState): Partial<ItemFields> {
    const changes: Partial<ItemFields> = {};
    const n = this.next();
    if (row.name !== null) changes.name = `${WORDS[row.name]} ${n}`;
    if (row.description !== null) changes.description = row.description ? `${WORDS[n % WORDS.length]} finish` : '';
    if (row.sku) changes.sku = `SKU-${n}`;
    if (row.cents !== null) changes.price = row.cents / 100;
    if (row.threshold !== null) changes.threshold = row.threshold;
    if (row.category !== null) {
      const category = this.pick(this.liveCategories(), row.category);
      if (category) changes.categoryId = category.id;
    }
    if (row.quantity !== null) changes.quantity = row.quantity;
    if (row.barcode !== null)
      changes.barcode = row.barcode === 'set' ? `TAG ${WORDS[(n + 2) % WORDS.length]} ${n}` : null;
    if (row.expiry !== null) changes.expiryDate = row.expiry === 'set' ? `2032-1${n % 3}-0${(n % 9) + 1}` : null;
    if (row.image !== null) changes.imageUrl = row.image === 'set' ? `https://img.example.com/e${n}.png` : null;
    if (changes.barcode && this.takenBy('barcode', changes.barcode, state.id)) delete changes.barcode;
    return changes;
  }

  private itemBatch(itemId: string, commands: StreamBatch['commands']): StreamBatch {
    const model = this.items.get(itemId);
    return { stream: itemStream(itemId), expectedVersion: model ? model.state!.version : 0, commands };
  }

  private async run(step: Step): Promise<void> {
    switch (step.kind) {
      case 'categories': {
        const batches = Array.from({ length: step.count }, (): StreamBatch => {
          const id = randomUUID();
          const events = createCategory({
            categoryId: id,
            name: `Aisle ${WORDS[this.counter % WORDS.length]} ${this.next()}`,
            description: '',
          });
          return { stream: categoryStream(id), expectedVersion: 0, commands: [{ events, metadata: this.meta() }] };
        });
        return this.append(batches);
      }
      case 'rename-category': {
        const category = this.pick(this.liveCategories(), step.pick);
        if (!category) return;
        const changes = {
          name: `Aisle ${WORDS[step.word]} ${this.next()}`,
          ...(step.describe ? { description: `${WORDS[step.word]} aisle` } : {}),
        };
        const events = updateCategory(changes, { ...category, itemCount: 0 });
        return this.append([
          {
            stream: categoryStream(category.id),
            expectedVersion: category.version,
            commands: [{ events, metadata: this.meta() }],
          },
        ]);
      }
      case 'delete-category': {
        const category = this.pick(this.liveCategories(), step.pick);
        if (!category) return;
        const itemCount = this.liveItems().filter((s) => s.categoryId === category.id).length;
        const events = deleteCategory({ ...category, itemCount });
        return this.append([
          {
            stream: categoryStream(category.id),
            expectedVersion: category.version,
            commands: [{ events, metadata: this.meta() }],
          },
        ]);
      }
      case 'create':
      case 'import': {
        const metadata = step.kind === 'import' ? this.meta({ importFile: `stock-${this.next()}.csv` }) : this.meta();
        const batches: StreamBatch[] = [];
        const edited = new Set<string>();
        for (const row of step.rows) {
          if (isNewRow(row)) {
            const fields = this.newFields(row);
            if (!fields) continue;
            const itemId = randomUUID();
            const events = createItem({ itemId, fields }, null, this.placeAt(row.place));
            batches.push(this.itemBatch(itemId, [{ events, metadata }]));
            continue;
          }
          // An import edits each item once (a second row with its SKU is refused).
          const state = this.pick(this.liveItems(), row.pick);
          if (!state || edited.has(state.id)) continue;
          edited.add(state.id);
          const events = updateItem({ changes: this.editChanges(row, state) }, state, this.placeAt(row.place));
          if (events.length) batches.push(this.itemBatch(state.id, [{ events, metadata }]));
        }
        return this.append(batches);
      }
      case 'edit': {
        const state = this.pick(this.liveItems(), step.row.pick);
        if (!state) return;
        const events = updateItem({ changes: this.editChanges(step.row, state) }, state, this.placeAt(step.row.place));
        if (events.length) return this.append([this.itemBatch(state.id, [{ events, metadata: this.meta() }])]);
        return;
      }
      case 'threshold': {
        const state = this.pick(this.liveItems(), step.pick);
        if (!state) return;
        const events = updateItem({ changes: { threshold: step.threshold } }, state);
        if (events.length) return this.append([this.itemBatch(state.id, [{ events, metadata: this.meta() }])]);
        return;
      }
      case 'relocate':
        return this.relocate(step.relocations, step.moves);
      case 'transfer':
        return this.transfer(step);
      case 'adjust':
      case 'stocktake': {
        // The group commit: each item's adjustments decided in order, each on the state the
        // one before left; one refused does not stop the others.
        const live = this.liveItems();
        const byItem = new Map<string, { state: ItemState; commands: StreamBatch['commands'] }>();
        const moves =
          step.kind === 'adjust'
            ? step.moves
            : step.counts.map((c) => {
                const state = this.pick(live, c.pick);
                return {
                  pick: c.pick,
                  delta: state ? c.counted - state.quantity : 0,
                  reason: 'count' as const,
                  place: c.pick,
                };
              });
        for (const m of moves) {
          const state = this.pick(live, m.pick);
          if (!state || m.delta === 0) continue;
          const work = byItem.get(state.id) ?? { state, commands: [] };
          if (step.kind === 'stocktake' && work.commands.length) continue;
          try {
            const place = this.placeAt(m.place);
            const events = adjustStock(
              { delta: m.delta, reason: m.reason, note: null, locationId: place?.id },
              work.state,
              place,
            );
            for (const [k, e] of events.entries()) {
              work.state = evolveItem(work.state, e, {
                version: work.state.version + k + 1,
                at: new Date(),
                streamId: '',
              })!;
            }
            const metadata = step.kind === 'stocktake' ? this.meta({ countedBy: USERS[1]! }) : this.meta();
            work.commands.push({ events, metadata });
            byItem.set(state.id, work);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
          }
        }
        const batches = [...byItem.entries()].map(([id, w]) => this.itemBatch(id, w.commands));
        return this.append(batches, step.kind === 'adjust' && step.prepared);
      }
      case 'delete': {
        const state = this.pick(this.liveItems(), step.pick);
        if (!state) return;
        return this.append([this.itemBatch(state.id, [{ events: deleteItem(state), metadata: this.meta() }])]);
      }
      case 'revert':
        return this.revert(step.pick, step.why);
      case 'dismiss': {
        const low = [...this.items.values()].filter((m) => m.lowSince !== null && !m.state!.deleted);
        const item = this.pick(low, step.pick);
        if (!item) return;
        const { uid } = USERS[step.user]!;
        const key = `${uid} ${item.state!.id}`;
        const events = decideAlert(
          { type: step.restore ? 'Restore' : 'Dismiss', uid, itemId: item.state!.id },
          { itemExists: true, openEpisode: item.lowSince, dismissedEpisode: this.dismissed.get(key) ?? null },
        );
        if (events.length)
          await this.append([
            { stream: alertStream(uid), expectedVersion: 'any', commands: [{ events, metadata: this.meta() }] },
          ]);
        return;
      }
    }
  }

  /** Reverts an earlier command as RevertService does: its events latest first, each on the state the one before left. */
  private async revert(pick: number, why: boolean): Promise<void> {
    const open = this.commands.filter((c) => c.every((e) => !this.reverted.has(e.eventId)));
    const command = this.pick(open, pick);
    if (!command) return;
    const model = this.items.get(command[0]!.streamId.slice('item-'.length))!;
    let state = model.state;
    let version = state!.version;
    const commands: StreamBatch['commands'] = [];
    // One revert's commands share a correlation id, so it is reverted as one command again.
    const meta = this.meta();
    for (const original of [...command].reverse()) {
      const later = model.events.filter((e) => e.streamVersion > original.streamVersion);
      const events = revertItemEvent(
        original,
        state,
        later,
        undefined,
        this.places.length ? this.placesByid() : undefined,
      );
      for (const event of events)
        state = evolveItem(state, event, { version: ++version, at: new Date(), streamId: original.streamId });
      commands.push({
        events,
        metadata: { ...meta, reverts: original.eventId, revertReason: why ? 'counted wrong' : null } as EventMetadata,
      });
    }
    // What RevertService checks before it appends: SKU and barcode free, the category there.
    const categoryIds = new Set(this.liveCategories().map((c) => c.id));
    for (const { events } of commands) {
      for (const e of events as InventoryEvent[]) {
        const set =
          e.type === 'ItemCreated'
            ? e.data
            : e.type === 'ItemUpdated'
              ? Object.fromEntries(Object.entries(e.data.changes).map(([k, c]) => [k, c!.to]))
              : {};
        if (
          this.takenBy('sku', (set.sku as string) ?? null, state!.id) ||
          this.takenBy('barcode', (set.barcode as string) ?? null, state!.id)
        )
          return;
        if (set.categoryId !== undefined && !categoryIds.has(set.categoryId as string)) return;
      }
    }
    for (const original of command) this.reverted.add(original.eventId);
    await this.append([this.itemBatch(state!.id, commands)]);
  }

  /**
   * Moves and adjustments of items decided in order, as the stock handler batches them (each
   * on the state the one before left; one refused does not stop the others).
   */
  private async relocate(relocations: Relocation[], moves: Move[]): Promise<void> {
    if (this.places.length < 2) return;
    const live = this.liveItems();
    const byItem = new Map<string, { state: ItemState; commands: StreamBatch['commands'] }>();
    const steps = [
      ...relocations.map((r) => ({ move: r, adjust: undefined })),
      ...moves.map((m) => ({ move: undefined, adjust: m })),
    ].sort((a, b) => (a.move?.pick ?? a.adjust!.pick) - (b.move?.pick ?? b.adjust!.pick));
    for (const { move, adjust } of steps) {
      const state = this.pick(live, move?.pick ?? adjust!.pick);
      if (!state) continue;
      const work = byItem.get(state.id) ?? { state, commands: [] };
      try {
        let events: InventoryEvent[];
        if (move) {
          const from = this.placeAt(move.from)!;
          const to = this.placeAt(move.to)!;
          events = moveStock(
            { fromLocationId: from.id, toLocationId: to.id, quantity: move.quantity, note: null },
            work.state,
            from,
            to,
          );
        } else {
          const place = this.placeAt(adjust!.place)!;
          events = adjustStock(
            { delta: adjust!.delta, reason: adjust!.reason, note: null, locationId: place.id },
            work.state,
            place,
          );
        }
        for (const [k, e] of events.entries())
          work.state = evolveItem(work.state, e, {
            version: work.state.version + k + 1,
            at: new Date(),
            streamId: '',
          })!;
        work.commands.push({ events, metadata: this.meta() });
        byItem.set(state.id, work);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
      }
    }
    return this.append([...byItem.entries()].map(([id, w]) => this.itemBatch(id, w.commands)));
  }

  /**
   * A transfer between two sites, each step decided by the app's decisions on the state so
   * far and appended on its own: drafted, shipped, received in part at a location of the
   * destination, the rest written off. A step refused (too little at a location) stops it.
   */
  private async transfer(step: Shipment): Promise<void> {
    const from = this.placeAt(step.from);
    const others = this.places.filter((p) => from && p.siteId !== from.siteId);
    const to = this.pick(others, step.to);
    if (!from || !to) return;
    const atSource = this.places.filter((p) => p.siteId === from.siteId);
    const live = this.liveItems();
    const lines = new Map<string, { itemId: string; fromLocationId: string; quantity: number }>();
    for (const line of step.lines) {
      const state = this.pick(live, line.pick);
      if (!state || lines.has(state.id)) continue;
      // Mostly from a location that holds some (so most transfers ship), at times from any.
      const stocked = atSource.filter((p) => (state.levels[p.id] ?? 0) > 0);
      const place = this.pick(line.from === 0 || stocked.length === 0 ? atSource : stocked, line.from)!;
      const there = state.levels[place.id] ?? 0;
      lines.set(state.id, {
        itemId: state.id,
        fromLocationId: place.id,
        quantity: there > 0 ? Math.min(line.quantity, there) : line.quantity,
      });
    }
    if (lines.size === 0) return;
    const facts = (): TransferFacts => ({
      sites: new Map(
        [...new Set(this.places.map((p) => p.siteId))].map((id) => [
          id,
          { id, name: `Site ${id.slice(-2)}`, archived: false },
        ]),
      ),
      locations: new Map(this.places.map((p) => [p.id, p])),
      items: new Map(this.liveItems().map((s) => [s.id, s])),
    });
    const transferId = randomUUID();
    let transfer: TransferState | null = null;
    const record = async (events: TransferEvent[], items: TransferDecision['items'] = new Map()) => {
      const metadata = this.meta();
      await this.append([
        {
          stream: transferStream(transferId),
          expectedVersion: transfer?.version ?? 0,
          commands: [{ events, metadata }],
        },
        ...[...items.entries()].map(([id, e]) => this.itemBatch(id, [{ events: e, metadata }])),
      ]);
      for (const event of events)
        transfer = evolveTransfer(transfer, event, { version: (transfer?.version ?? 0) + 1, at: new Date() });
    };
    /** Undoes the step just recorded as TransferUndo does: its events found, decided, appended citing them. */
    const undoLast = async () => {
      const stored = this.appended;
      const step: StepToUndo = {
        transfer: stored.filter((e) => e.streamType === 'transfer'),
        items: new Map(
          stored
            .filter((e) => e.streamType === 'item' && e.type !== 'ItemWentLow' && e.type !== 'ItemRecovered')
            .map((e) => [e.streamId.slice('item-'.length).toLowerCase(), e]),
        ),
      };
      const undo = undoTransferStep(transfer, step, facts());
      const meta = this.meta();
      const metadata = (reverts: string) => ({ ...meta, reverts, revertReason: null }) as EventMetadata;
      await this.append([
        {
          stream: transferStream(transferId),
          expectedVersion: transfer!.version,
          commands: undo.transfer.map((c) => ({ events: c.events, metadata: metadata(c.reverts) })),
        },
        ...[...undo.items.entries()].map(([id, c]) =>
          this.itemBatch(id, [{ events: c.events, metadata: metadata(c.reverts) }]),
        ),
      ]);
      for (const event of undo.transfer.flatMap((c) => c.events))
        transfer = evolveTransfer(transfer, event, { version: transfer!.version + 1, at: new Date() });
    };
    const number = ++this.transfers;
    await record(
      createTransfer(
        { transferId, number, fromSiteId: from.siteId, toSiteId: to.siteId, lines: [...lines.values()] },
        facts(),
      ),
    );
    const shipped = shipTransfer(transfer, facts());
    await record(shipped.transfer, shipped.items);
    if (step.undo === 1) {
      await undoLast();
      const again = shipTransfer(transfer, facts());
      await record(again.transfer, again.items);
    }
    const received = [...lines.values()].flatMap((line, i) => {
      const quantity = Math.min(step.receive[i] ?? line.quantity, line.quantity);
      return quantity > 0 ? [{ itemId: line.itemId, quantity }] : [];
    });
    if (received.length) {
      const receipt = receiveTransfer(transfer, { toLocationId: to.id, lines: received }, facts());
      await record(receipt.transfer, receipt.items);
      if (step.undo === 2) await undoLast();
    }
    const left = transfer!.lines.filter((l) => l.quantity > l.received);
    if (step.writeOff && left.length) {
      const loss = writeOffTransfer(
        transfer,
        { reason: 'lost on the way', lines: left.map((l) => ({ itemId: l.itemId })) },
        facts(),
      );
      await record(loss.transfer, loss.items);
      if (step.undo === 3) await undoLast();
    }
  }

  private async append(batches: StreamBatch[], prepared = false): Promise<void> {
    if (batches.length === 0) return;
    this.onAppend(new Set(batches.flatMap((b) => b.commands.flatMap((c) => c.events.map((e) => e.type)))));
    const stored = await this.store.db.transaction().execute(async (trx) => {
      // The group commit's append runs as a statement prepared on its connection.
      const backend = prepared
        ? Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid)
        : undefined;
      const results = await this.store.appendBatch(trx, batches, { backend });
      return results.flat().flatMap((r) => r.events);
    });
    this.store.committed();
    stored.sort((a, b) => a.position - b.position);
    this.appended = stored;
    const itemCommands = new Map<string, StoredEvent[]>();
    for (const event of stored) {
      if (event.streamType === 'category') {
        const id = event.streamId.slice('category-'.length);
        this.categories.set(
          id,
          evolveCategory(this.categories.get(id) ?? null, event as never, {
            version: event.streamVersion,
            at: event.createdAt,
          })!,
        );
      }
      if (event.streamType === 'alerts') {
        const d = event.data as { uid: string; itemId: string; episode?: number };
        if (event.type === 'AlertDismissed') this.dismissed.set(`${d.uid} ${d.itemId}`, d.episode!);
        if (event.type === 'AlertRestored') this.dismissed.delete(`${d.uid} ${d.itemId}`);
      }
      if (event.streamType !== 'item') continue;
      const id = event.streamId.slice('item-'.length);
      const model = this.items.get(id) ?? { state: null, events: [], lowSince: null };
      model.state = evolveItem(model.state, { type: event.type, data: event.data } as InventoryEvent, {
        version: event.streamVersion,
        at: event.createdAt,
        streamId: event.streamId,
      });
      model.events.push(event);
      if (event.type === 'ItemWentLow') model.lowSince = event.position;
      if (event.type === 'ItemRecovered' || event.type === 'ItemDeleted') {
        model.lowSince = null;
        for (const user of USERS) this.dismissed.delete(`${user.uid} ${id}`);
      }
      this.items.set(id, model);
      if (event.type === 'ItemWentLow' || event.type === 'ItemRecovered') continue;
      // One command's events share a transaction and a correlation id (RevertService.load).
      const key = `${event.streamId} ${event.metadata.correlationId}`;
      itemCommands.set(key, [...(itemCommands.get(key) ?? []), event]);
    }
    this.commands.push(...itemCommands.values());
  }
}

/** A history: two categories and a few items to start from, then `steps` random steps. */
export const historyArb = (steps: { minLength: number; maxLength: number }): fc.Arbitrary<Step[]> =>
  fc
    .tuple(fc.array(newItemRow, { minLength: 2, maxLength: 4 }), fc.array(stepArb, steps))
    .map(([rows, rest]): Step[] => [{ kind: 'categories', count: 2 }, { kind: 'create', rows }, ...rest]);
