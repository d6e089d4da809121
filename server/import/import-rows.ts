// One imported row, judged exactly as the API would judge it: the cells become a create or
// update body, checked by the API's own JSON schemas (compiled by the app's validator) and
// then decided by the items' decide functions, so an import refuses what the API refuses
// and writes the events the API writes. The dry run and the commit both come through here.
// A row that names a place (Site, Location) sets the quantity at that location only: its
// difference there is a `count` adjustment, and the item's other locations keep theirs.
import type { ImportField } from '../../shared/import.js';
import type { InventoryEvent, ItemFields } from '../../shared/inventory-events.js';
import { evolveItem } from '../../shared/inventory-fold.js';
import { DomainError } from '../errors.js';
import { describeValidationError, validatorCompiler } from '../http/validation.js';
import { adjustStock, createItem, updateItem } from '../inventory/decide.js';
import { rowToState, type ItemRow } from '../inventory/item-rows.js';
import type { ItemState } from '../inventory/item-state.js';
import type { StockPlace } from '../inventory/stock-places.js';
import { createItemBody, updateItemBody } from '../inventory/schemas.js';
import { lookUpPlace, type PlaceDirectory } from './import-places.js';

type Validate = ((data: unknown) => boolean) & { errors?: any[] | null };
const compile = (schema: object) =>
  validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/import' } as any) as Validate;
const validateCreate = compile(createItemBody);
const validateUpdate = compile(updateItemBody);

/** Stands in for a category the import will create, so the rest of the row can be checked now. */
const PENDING_CATEGORY_ID = '00000000-0000-4000-8000-000000000000';

/** Text cells a spreadsheet would run as a formula (CSV injection). */
const FORMULA_START = /^[=+@\t\r]|^-[^\s\d.]/;
/**
 * The quote our exports put before a cell that starts with a formula character
 * (shared/csv-cell.ts): a spreadsheet shows '=x as the text =x, so the value is =x.
 */
const DEFUSED = /^'(?=[=+\-@\t\r])/;
const TEXT_FIELDS: ImportField[] = ['name', 'sku', 'category', 'description', 'barcode'];

export interface RowProblem {
  kind: 'problem';
  column: ImportField | null;
  message: string;
}
export interface RowCreate {
  kind: 'create';
  sku: string;
  categoryName: string;
  fields: ItemFields;
  events: InventoryEvent[];
  /** The location the row names (Site, Location), or null. */
  place: StockPlace | null;
  /** The item as the row leaves it: what a later row of the same SKU (another location) is judged against. */
  after: ItemRow;
}
export interface RowUpdate {
  kind: 'update';
  existing: ItemRow;
  categoryName: string | null;
  /** Empty: the file says what the item already is. */
  events: InventoryEvent[];
  place: StockPlace | null;
  after: ItemRow;
}
export type RowDecision = RowProblem | RowCreate | RowUpdate;

/** What a row is judged against: the store's items (by SKU and barcode) and categories. */
export interface RowContext {
  itemsBySku: Map<string, ItemRow>;
  /** Barcode -> the item that has it, or the location (its name then reads "location Shelf 2"). */
  barcodeOwners: Map<string, { id: string; name: string }>;
  /** Lower-case name -> id. */
  categoriesByName: Map<string, string>;
  /** At commit a category must exist by now (the user confirmed the new ones first). */
  newCategories: 'allowed' | 'refused';
  /** Where new items' stock and changed counts go: the default location of the importer's site. */
  place?: StockPlace;
  /** The store's sites and locations, for rows that name one (none loaded: no row may). */
  places?: PlaceDirectory;
  /** Whether the importer may change stock at a site (server/auth/site-access.ts). */
  mayAt?: MayAtSite;
}

/**
 * Whether an importer may change stock at a site. `everySite: false` (someone whose role
 * holds at some sites only) also keeps a row that names no place from setting an item's
 * total, which counts stock at sites they may not see.
 */
export interface MayAtSite {
  (siteId: string): boolean;
  everySite?: boolean;
}

/** The item a row's events leave, as a row of the items table (category named as the row names it). */
function rowAfter(before: ItemState | null, events: InventoryEvent[], categoryName: string): ItemRow {
  let state = before;
  for (const event of events)
    state = evolveItem(state, event, { version: (state?.version ?? 0) + 1, at: state?.updatedAt ?? null });
  const s = state!;
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    sku: s.sku,
    category_id: s.categoryId,
    category_name: categoryName,
    quantity: s.quantity,
    price: s.price,
    threshold: s.threshold,
    image_url: s.imageUrl,
    expiry_date: s.expiryDate,
    barcode: s.barcode,
    version: s.version,
    created_at: s.createdAt ?? new Date(0),
    updated_at: s.updatedAt ?? new Date(0),
    levels: s.levels,
    in_transit: s.inTransit,
  };
}

/** The events that set the stock at `place` to `counted`: a `count` adjustment of the difference there (none if equal). */
function countAt(state: ItemState, place: StockPlace, counted: number): InventoryEvent[] {
  const delta = counted - (state.levels[place.id] ?? 0);
  return delta === 0 ? [] : adjustStock({ delta, reason: 'count', note: null, locationId: place.id }, state, place);
}

const problem = (column: ImportField | null, message: string): RowProblem => ({ kind: 'problem', column, message });

/** A count as text: "12" or "12.0"; anything else stays text, for the schema to refuse by name. */
function count(text: string): number | string {
  return /^[+]?\d{1,12}(\.0+)?$/.test(text) ? Number(text) : text;
}

/**
 * A price as spreadsheets write it: "4.5", "4,50" (decimal comma, as semicolon files from
 * European Excel have), "1,234.50", "1.234,50", with an optional currency sign.
 */
export function parsePrice(text: string): number | string {
  const s = text.replace(/[\s\u00a0$€£¥]/g, '');
  if (/^-?\d+([.,]\d+)?$/.test(s)) return Number(s.replace(',', '.'));
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) return Number(s.replace(/,/g, ''));
  if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(s)) return Number(s.replace(/\./g, '').replace(',', '.'));
  return text;
}

/** Which import column an API field name belongs to. */
const columnOfApiField: Record<string, ImportField> = {
  name: 'name',
  sku: 'sku',
  barcode: 'barcode',
  category_id: 'category',
  categoryId: 'category',
  quantity: 'quantity',
  price: 'price',
  threshold: 'threshold',
  description: 'description',
  expiry_date: 'expiry_date',
  expiryDate: 'expiry_date',
  image_url: 'image_url',
  imageUrl: 'image_url',
};

function schemaProblem(validate: Validate): RowProblem {
  const error = validate.errors?.[0];
  const field =
    error?.keyword === 'required' ? error.params.missingProperty : String(error?.instancePath ?? '').replace(/^\//, '');
  const column = columnOfApiField[field] ?? null;
  const message = describeValidationError(validate.errors ?? [], 'row').replace(
    /^category_id is required$/,
    'category is required',
  );
  return problem(column, message);
}

/** A decision's ValidationError names its field first ("price must be 0 or more"). */
function decisionProblem(error: unknown, barcodeGiven: boolean): RowProblem {
  if (!(error instanceof DomainError)) throw error;
  const first = /^([a-z_]+)/i.exec(error.message)?.[1] ?? '';
  const column = columnOfApiField[first] ?? (/^barcode/i.test(error.message) && barcodeGiven ? 'barcode' : null);
  return problem(column, error.message);
}

/** The API body a row's cells make: blank cells are left out (for an update: left as they are). */
function bodyOf(cells: Partial<Record<ImportField, string>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined && value !== '') body[key] = value;
  };
  put('name', cells.name);
  put('sku', cells.sku);
  put('description', cells.description);
  put('barcode', cells.barcode);
  put('quantity', cells.quantity ? count(cells.quantity) : undefined);
  put('threshold', cells.threshold ? count(cells.threshold) : undefined);
  put('price', cells.price ? parsePrice(cells.price) : undefined);
  put('image_url', cells.image_url);
  put('expiry_date', cells.expiry_date);
  return body;
}

/** The item fields of a checked body, as item-commands.ts maps them. */
const changesOf = (body: Record<string, any>): Partial<ItemFields> => ({
  name: body.name,
  description: body.description,
  categoryId: body.category_id,
  quantity: body.quantity,
  price: body.price,
  threshold: body.threshold,
  imageUrl: body.image_url,
  expiryDate: body.expiry_date,
  barcode: body.barcode,
});

/**
 * Trimmed cells by field; `columns` says which field each cell fills. A text cell our export
 * defused ('=x) loses that quote, so an exported file imports back as it was.
 */
export function cellsOf(columns: ImportField[], values: string[]): Partial<Record<ImportField, string>> {
  const cells: Partial<Record<ImportField, string>> = {};
  columns.forEach((field, i) => {
    const value = (values[i] ?? '').trim();
    cells[field] = TEXT_FIELDS.includes(field) ? value.replace(DEFUSED, '') : value;
  });
  return cells;
}

/** What an existing item has in a text field, to compare a cell with. */
function valueOf(item: ItemRow, field: ImportField): string | null {
  if (field === 'category') return item.category_name;
  if (field === 'sku' || field === 'name' || field === 'description' || field === 'barcode') return item[field];
  return null;
}

/**
 * The formula check of a row's text cells. A value that starts like a formula is refused
 * (quote taken off by cellsOf or not), unless it is what the matched item already has: an
 * item named "=x" through the API exports as '=x and imports back unchanged. The import
 * never writes a formula; it only leaves one where it found it.
 */
function checkFormulas(cells: Partial<Record<ImportField, string>>, context: RowContext): RowProblem | null {
  const existing = cells.sku ? context.itemsBySku.get(cells.sku.toLowerCase()) : undefined;
  for (const field of TEXT_FIELDS) {
    const value = cells[field];
    if (!value || !FORMULA_START.test(value)) continue;
    const current = existing ? valueOf(existing, field) : null;
    const same =
      field === 'sku' || field === 'category' ? current?.toLowerCase() === value.toLowerCase() : current === value;
    if (same) {
      if (field !== 'sku') delete cells[field]; // left as it is
      continue;
    }
    return problem(
      field,
      `${field} starts with "${value[0]}": a spreadsheet formula or command, which is not imported (type the value itself)`,
    );
  }
  return null;
}

/**
 * A row that names no place, refused for roles per site: a new item's stock goes to the
 * importer's site, where they must be allowed to change it; an existing item's count would be
 * its total, not for someone who works at some sites only.
 */
function refusedWithoutPlace(
  cells: Partial<Record<ImportField, string>>,
  existing: boolean,
  context: RowContext,
): RowProblem | null {
  const mayAt = context.mayAt;
  if (!mayAt || mayAt.everySite !== false) return null;
  if (existing) {
    if (cells.quantity === undefined) return null;
    return problem(
      'quantity',
      'Your role holds at some sites only: fill in the Site or Location column to count the stock there',
    );
  }
  const siteId = context.place?.siteId;
  if (!siteId || mayAt(siteId)) return null;
  const name = context.places?.sites.find((s) => s.id === siteId)?.name ?? context.place?.siteName ?? 'your site';
  return problem('site', `You don't have permission to change stock at ${name}: fill in the Site column`);
}

/** Judges one row: a problem, or the events its create or update makes. `newItemId` names a created item. */
export function decideRow(
  cells: Partial<Record<ImportField, string>>,
  context: RowContext,
  newItemId: string,
): RowDecision {
  const formula = checkFormulas(cells, context);
  if (formula) return formula;
  const sku = cells.sku ?? '';
  if (!sku) return problem('sku', 'sku is required (it says which item the row is)');
  const existing = context.itemsBySku.get(sku.toLowerCase());
  const lookup = lookUpPlace(cells, context.places ?? { sites: [], locations: [] }, context.mayAt ?? (() => true));
  if (lookup.kind === 'problem') return problem(lookup.column, lookup.message);
  const place = lookup.kind === 'place' ? lookup.place : null;
  const refused = place ? null : refusedWithoutPlace(cells, Boolean(existing), context);
  if (refused) return refused;
  const categoryName = cells.category || null;
  let categoryId: string | undefined;
  if (categoryName) {
    categoryId = context.categoriesByName.get(categoryName.toLowerCase());
    if (!categoryId && context.newCategories === 'refused')
      return problem('category', `Category ${categoryName} does not exist`);
    if (categoryName.length > 100) return problem('category', 'category must NOT have more than 100 characters');
  }
  const body = bodyOf(cells);
  if (cells.barcode) {
    const owner = context.barcodeOwners.get(cells.barcode);
    if (owner && owner.id !== existing?.id) return problem('barcode', `Barcode already used by ${owner.name}`);
  }
  try {
    if (!existing) {
      // Columns a file may lack: no quantity or threshold column means 0 (a blank cell is still refused).
      const defaults = {
        ...(cells.quantity === undefined ? { quantity: 0 } : {}),
        ...(cells.threshold === undefined ? { threshold: 0 } : {}),
      };
      const create: Record<string, any> = {
        ...defaults,
        ...body,
        category_id: categoryId ?? (categoryName ? PENDING_CATEGORY_ID : undefined),
      };
      if (!validateCreate(create)) return schemaProblem(validateCreate);
      const fields = {
        name: create.name,
        description: create.description ?? '',
        sku: create.sku,
        categoryId: create.category_id,
        quantity: create.quantity,
        price: create.price,
        threshold: create.threshold,
        imageUrl: create.image_url ?? null,
        expiryDate: create.expiry_date ?? null,
        barcode: create.barcode ?? null,
      } as ItemFields;
      const events = createItem({ itemId: newItemId, fields }, null, place ?? context.place);
      const after = rowAfter(null, events, categoryName!);
      return { kind: 'create', sku, categoryName: categoryName!, fields, events, place, after };
    }
    // The SKU is what matched the row to the item: it is not changed by it.
    const { sku: _key, ...update }: Record<string, unknown> = {
      ...body,
      ...(categoryName ? { category_id: categoryId ?? PENDING_CATEGORY_ID } : {}),
    };
    const unchanged: RowUpdate = { kind: 'update', existing, categoryName, events: [], place, after: existing };
    if (Object.keys(update).length === 0) return unchanged;
    if (!validateUpdate(update)) return schemaProblem(validateUpdate);
    const state = rowToState(existing);
    const { quantity: counted, ...fields } = changesOf(update);
    // At a named place the quantity is that location's; else the item's total, as before places.
    const events = place
      ? updateItem({ changes: fields }, state, context.place)
      : updateItem({ changes: { ...fields, quantity: counted } }, state, context.place);
    if (place && counted !== undefined) {
      let folded: ItemState = state;
      for (const [k, event] of events.entries())
        folded = evolveItem(folded, event, { version: state.version + k + 1, at: null }) ?? folded;
      events.push(...countAt(folded, place, counted));
    }
    if (events.length === 0) return unchanged;
    const after = rowAfter(state, events, categoryName ?? existing.category_name);
    return { kind: 'update', existing, categoryName, events, place, after };
  } catch (error) {
    return decisionProblem(error, Boolean(cells.barcode));
  }
}
