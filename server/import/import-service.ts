// CSV import on the server: a dry run that judges every row of a file the way the API
// would, the creation of the categories the user confirmed, and the commit of one batch of
// rows in one transaction. Every change is an ordinary event (ItemCreated, ItemUpdated,
// StockAdjusted, CategoryCreated) whose correlation id is the import's id; each row's events
// carry the key `import:{importId}:{row}`, so a retried or resumed batch never writes twice.
// With Site and Location columns a file may name an item once per location: its rows are
// judged in order, each against the item as the rows before it left it, and written to
// the item's stream in that order.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  importCategoryKey,
  importRowKey,
  type CommitBody,
  type CommitRowResult,
  type DryRunReport,
  type ImportCategoriesBody,
  type ImportProblem,
  type ImportRowsBody,
} from '../../shared/import.js';
import { categoryStream, itemStream } from '../../shared/inventory-events.js';
import { createCategory } from '../categories/decide.js';
import {
  isUniqueViolation,
  retryRace,
  WrongExpectedVersionError,
  type EventStore,
  type StreamBatch,
} from '../eventstore/event-store.js';
import type { Actor, EventMetadata, Transaction } from '../eventstore/types.js';
import { itemStateColumns, type ItemRow } from '../inventory/item-rows.js';
import { loadPlaces, siteOfCaller } from '../inventory/places-sql.js';
import { placeOf } from '../inventory/stock-places.js';
import { loadPlaceDirectory } from './import-places.js';
import { cellsOf, decideRow, type MayAtSite, type RowContext, type RowDecision } from './import-rows.js';

export type { MayAtSite } from './import-rows.js';

/** A new item's id in the dry run, where nothing is written. */
const DRY_RUN_ITEM_ID = '00000000-0000-4000-8000-000000000001';
/** Attempts of a batch that lost a race with another writer (a SKU or barcode taken meanwhile). */
const RACE_ATTEMPTS = 5;

const jsonList = (values: string[]) =>
  sql`(select value from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/** The store as the rows see it. On a commit, the items the rows name are locked (in id order). */
async function loadContext(
  db: Transaction,
  skus: string[],
  barcodes: string[],
  mode: { lock: boolean },
  siteId: string,
  mayAt: MayAtSite,
): Promise<Omit<RowContext, 'newCategories'>> {
  const lowered = [...new Set(skus.map((s) => s.toLowerCase()))];
  const items = lowered.length
    ? await sql<ItemRow>`select ${sql.raw(itemStateColumns)} from items where lower(sku) in ${jsonList(lowered)}
        order by id ${mode.lock ? sql`for update` : sql``}`.execute(db)
    : { rows: [] };
  const owners = barcodes.length
    ? await sql<{ id: string; name: string; barcode: string }>`select id::text, name, barcode from items
        where barcode in ${jsonList([...new Set(barcodes)])}
        union all select id::text, 'location ' || name, barcode from locations
        where barcode in ${jsonList([...new Set(barcodes)])}`.execute(db)
    : { rows: [] };
  const categories = await sql<{ id: string; name: string }>`select id, name from categories`.execute(db);
  const place = placeOf(await loadPlaces(db, [], [siteId]), undefined, siteId, 'location');
  return {
    place,
    places: await loadPlaceDirectory(db),
    mayAt,
    itemsBySku: new Map(items.rows.map((row) => [row.sku.toLowerCase(), row])),
    barcodeOwners: new Map(owners.rows.map((row) => [row.barcode, { id: row.id, name: row.name }])),
    categoriesByName: new Map(categories.rows.map((row) => [row.name.toLowerCase(), row.id])),
  };
}

/**
 * Rows that name an item more than once (SKU, at the same place if the row names one; or a
 * barcode of another SKU): the later ones, with the row they repeat.
 */
class FileDuplicates {
  private readonly skus = new Map<string, number>();
  private readonly barcodes = new Map<string, { row: number; sku: string }>();

  check(
    row: number,
    sku: string,
    barcode: string | undefined,
    place: { id: string; name: string } | null,
  ): Omit<ImportProblem, 'row'> | null {
    const key = `${sku.toLowerCase()}@${place?.id ?? ''}`;
    const first = this.skus.get(key);
    if (first !== undefined)
      return place
        ? {
            column: 'sku',
            message: `SKU ${sku} at ${place.name} is also on row ${first}: a file can name an item once per location`,
          }
        : { column: 'sku', message: `SKU ${sku} is also on row ${first}: a file can name an item once` };
    const firstCode = barcode ? this.barcodes.get(barcode) : undefined;
    if (firstCode !== undefined && firstCode.sku !== sku.toLowerCase())
      return { column: 'barcode', message: `Barcode ${barcode} is also on row ${firstCode.row}` };
    this.skus.set(key, row);
    if (barcode && !firstCode) this.barcodes.set(barcode, { row, sku: sku.toLowerCase() });
    return null;
  }
}

/** After a row is accepted: later rows of its SKU are judged against the item as it left it. */
function remember(context: RowContext, decision: Exclude<RowDecision, { kind: 'problem' }>): void {
  const after = decision.after;
  context.itemsBySku.set(after.sku.toLowerCase(), after);
  if (after.barcode) context.barcodeOwners.set(after.barcode, { id: after.id, name: after.name });
}

/** At every site, unless told otherwise (MayAtSite: import-rows.ts). */
const everywhere: MayAtSite = () => true;

export class ImportService {
  constructor(private readonly store: EventStore) {}

  /** Judges every row; writes nothing. */
  async dryRun(body: ImportRowsBody, siteId = siteOfCaller(), mayAt: MayAtSite = everywhere): Promise<DryRunReport> {
    const data = body.rows.flatMap((r) =>
      'cells' in r ? [{ row: r.row, cells: cellsOf(body.columns, r.cells) }] : [],
    );
    const loaded = await loadContext(
      this.store.db,
      data.map((d) => d.cells.sku ?? '').filter(Boolean),
      data.map((d) => d.cells.barcode ?? '').filter(Boolean),
      { lock: false },
      siteId,
      mayAt,
    );
    const context: RowContext = { ...loaded, newCategories: 'allowed' };
    const report: DryRunReport = {
      rows: body.rows.length,
      create: 0,
      update: 0,
      unchanged: 0,
      problems: [],
      newCategories: [],
    };
    const newCategories = new Map<string, string>();
    const duplicates = new FileDuplicates();
    const cellsByRow = new Map(data.map((d) => [d.row, d.cells]));
    for (const input of body.rows) {
      if ('problem' in input) {
        report.problems.push({ row: input.row, column: null, message: input.problem });
        continue;
      }
      const cells = cellsByRow.get(input.row)!;
      const decision = decideRow(cells, context, DRY_RUN_ITEM_ID);
      if (decision.kind === 'problem') {
        report.problems.push({ row: input.row, column: decision.column, message: decision.message });
        continue;
      }
      const duplicate = duplicates.check(input.row, cells.sku!, cells.barcode || undefined, decision.place);
      if (duplicate) {
        report.problems.push({ row: input.row, ...duplicate });
        continue;
      }
      remember(context, decision);
      if (decision.kind === 'create') report.create++;
      else if (decision.events.length) report.update++;
      else report.unchanged++;
      const category = decision.categoryName;
      if (
        category &&
        !context.categoriesByName.has(category.toLowerCase()) &&
        !newCategories.has(category.toLowerCase())
      ) {
        newCategories.set(category.toLowerCase(), category);
      }
    }
    report.newCategories = [...newCategories.values()].sort((a, b) => a.localeCompare(b));
    return report;
  }

  /** Creates the confirmed categories that do not exist yet (by name, any case); answers every name's category. */
  async createCategories(
    body: ImportCategoriesBody,
    actor: Actor,
  ): Promise<Array<{ id: string; name: string; created: boolean }>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.createCategoriesOnce(body, actor);
      } catch (error) {
        // Someone created one of them meanwhile: the next attempt finds it.
        if (!isUniqueViolation(error, 'categories_name_unique') || attempt >= RACE_ATTEMPTS) throw error;
      }
    }
  }

  private async createCategoriesOnce(body: ImportCategoriesBody, actor: Actor) {
    let wrote = false;
    const answer = await retryRace(() =>
      this.store.db.transaction().execute(async (trx) => {
        const existing = await sql<{ id: string; name: string }>`select id, name from categories`.execute(trx);
        const byName = new Map(existing.rows.map((c) => [c.name.toLowerCase(), c]));
        const names = [...new Map(body.names.map((n) => [n.trim().toLowerCase(), n.trim()])).values()].filter(Boolean);
        const keys = names.map((name) => importCategoryKey(body.importId, name));
        const seen = new Set(
          (
            await sql<{ key: string }>`select key from event_idempotency where key in ${jsonList(keys)}`.execute(trx)
          ).rows.map((r) => r.key),
        );
        const batches: StreamBatch[] = [];
        const result = names.map((name) => {
          const found = byName.get(name.toLowerCase());
          if (found) return { id: found.id, name: found.name, created: false };
          const key = importCategoryKey(body.importId, name);
          if (seen.has(key)) return null; // made by this import, then renamed or deleted: not again
          const id = randomUUID();
          batches.push({
            stream: categoryStream(id),
            expectedVersion: 0,
            commands: [
              {
                events: createCategory({ categoryId: id, name, description: '' }),
                metadata: this.meta(body, actor, key),
              },
            ],
          });
          return { id, name, created: true };
        });
        if (batches.length) {
          // A created item's later rows (other locations) go in a second statement: the set-based
          // projections take an item created in a statement to have nothing else in it.
          const first: StreamBatch[] = [];
          const later: StreamBatch[] = [];
          for (const batch of batches.values()) {
            const [head, ...rest] = batch.commands;
            if (batch.expectedVersion !== 0 || rest.length === 0) first.push(batch);
            else {
              first.push({ ...batch, commands: [head!] });
              later.push({ stream: batch.stream, expectedVersion: head!.events.length, commands: rest });
            }
          }
          await this.store.appendBatch(trx, first);
          if (later.length) await this.store.appendBatch(trx, later);
          wrote = true;
        }
        return result.filter((r) => r !== null);
      }),
    );
    if (wrote) this.store.committed();
    return answer;
  }

  /** Writes one batch of rows in one transaction; answers each row's outcome. */
  async commit(
    body: CommitBody,
    actor: Actor,
    siteId = siteOfCaller(),
    mayAt: MayAtSite = everywhere,
  ): Promise<CommitRowResult[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.commitOnce(body, actor, siteId, mayAt);
      } catch (error) {
        // Another writer took a SKU or barcode, or moved an item, between our read and our
        // write: nothing was written; the next attempt sees what they did.
        const raced =
          isUniqueViolation(error, 'items_sku_unique') ||
          isUniqueViolation(error, 'items_barcode_unique') ||
          error instanceof WrongExpectedVersionError;
        if (!raced || attempt >= RACE_ATTEMPTS) throw error;
      }
    }
  }

  private meta(body: { importId: string; fileName: string }, actor: Actor, idempotencyKey: string): EventMetadata {
    return { actor, correlationId: body.importId, idempotencyKey, importFile: body.fileName };
  }

  private async commitOnce(
    body: CommitBody,
    actor: Actor,
    siteId: string,
    mayAt: MayAtSite,
  ): Promise<CommitRowResult[]> {
    let wrote = false;
    const results = await retryRace(() =>
      this.store.db.transaction().execute(async (trx) => {
        const data = body.rows.flatMap((r) =>
          'cells' in r ? [{ row: r.row, cells: cellsOf(body.columns, r.cells) }] : [],
        );
        // Rows written before (a retry, or a resumed import) are answered from their events.
        const keys = data.map((d) => importRowKey(body.importId, d.row));
        const done = new Map(
          (
            await sql<{ key: string; type: string | null }>`select i.key, e.type from event_idempotency i
              left join events e on e.position = (i.result -> 'positions' ->> 0)::bigint
              where i.key in ${jsonList(keys)}`.execute(trx)
          ).rows.map((r) => [r.key, r.type]),
        );
        const pending = data.filter((d) => !done.has(importRowKey(body.importId, d.row)));
        const loaded = await loadContext(
          trx,
          pending.map((d) => d.cells.sku ?? '').filter(Boolean),
          pending.map((d) => d.cells.barcode ?? '').filter(Boolean),
          { lock: true },
          siteId,
          mayAt,
        );
        const context: RowContext = { ...loaded, newCategories: 'refused' };
        const duplicates = new FileDuplicates();
        // One batch per item: a later row of the same item (another location) adds a command to it.
        const batches = new Map<string, StreamBatch>();
        const write = (itemId: string, expectedVersion: number, command: StreamBatch['commands'][number]) => {
          const batch = batches.get(itemId) ?? { stream: itemStream(itemId), expectedVersion, commands: [] };
          batch.commands.push(command);
          batches.set(itemId, batch);
        };
        const categories = new Set<string>();
        const cellsByRow = new Map(data.map((d) => [d.row, d.cells]));
        const answers = body.rows.map((input): CommitRowResult => {
          if ('problem' in input) return { row: input.row, outcome: 'rejected', column: null, message: input.problem };
          const key = importRowKey(body.importId, input.row);
          if (done.has(key))
            return { row: input.row, outcome: done.get(key) === 'ItemCreated' ? 'created' : 'updated' };
          const cells = cellsByRow.get(input.row)!;
          const itemId = randomUUID();
          const decision = decideRow(cells, context, itemId);
          if (decision.kind === 'problem')
            return { row: input.row, outcome: 'rejected', column: decision.column, message: decision.message };
          const duplicate = duplicates.check(input.row, cells.sku!, cells.barcode || undefined, decision.place);
          if (duplicate) return { row: input.row, outcome: 'rejected', ...duplicate };
          if (decision.events.length === 0) return { row: input.row, outcome: 'unchanged' };
          remember(context, decision);
          const metadata = this.meta(body, actor, key);
          if (decision.kind === 'create') {
            categories.add(decision.fields.categoryId);
            write(itemId, 0, { events: decision.events, metadata });
            return { row: input.row, outcome: 'created' };
          }
          const moved = decision.events.find((e) => e.type === 'ItemUpdated' && e.data.changes.categoryId);
          if (moved)
            categories
              .add(decision.existing.category_id)
              .add(context.categoriesByName.get(decision.categoryName!.toLowerCase())!);
          write(decision.existing.id, Number(decision.existing.version), { events: decision.events, metadata });
          return { row: input.row, outcome: 'updated' };
        });
        if (batches.size) {
          // The categories whose item counts change, locked in id order as item writes lock them.
          const ids = [...categories].sort();
          if (ids.length)
            await sql`select id from categories where id::text in ${jsonList(ids)} order by id for update`.execute(trx);
          // A created item's later rows (other locations) go in a second statement: the set-based
          // projections take an item created in a statement to have nothing else in it.
          const first: StreamBatch[] = [];
          const later: StreamBatch[] = [];
          for (const batch of batches.values()) {
            const [head, ...rest] = batch.commands;
            if (batch.expectedVersion !== 0 || rest.length === 0) first.push(batch);
            else {
              first.push({ ...batch, commands: [head!] });
              later.push({ stream: batch.stream, expectedVersion: head!.events.length, commands: rest });
            }
          }
          await this.store.appendBatch(trx, first);
          if (later.length) await this.store.appendBatch(trx, later);
          wrote = true;
        }
        return answers;
      }),
    );
    if (wrote) this.store.committed();
    return results;
  }
}
