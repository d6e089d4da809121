// How pushed events change what a screen holds (applied with immer drafts by the live
// query machines). An event at or below the version we hold is already included and is
// ignored, so a replay after reconnecting never applies anything twice. Whatever can't be
// patched exactly (a category's name for a moved item, a new item on a paged list) asks
// for a refetch instead.
import type { Draft } from 'immer';
import type { Category, CategoryItemsPage, HistoryEntry, Item, ItemLocations } from '../../../shared/inventory';
import type {
  CategoryEvent,
  CategoryFields,
  Changes,
  InventoryEvent,
  ItemFields,
} from '../../../shared/inventory-events';
import { evolveCategory, evolveItem, type FoldedCategory, type FoldedItem } from '../../../shared/inventory-fold';
import type { FeedEvent } from '../../../shared/realtime';
import type { Location, Site } from '../../../shared/sites';
import type { FeedEffect } from '../../lib/live-query.machine';
import { applyToPlaces } from './item-places-live';

export function itemIdOf(event: FeedEvent): string | null {
  return event.streamType === 'item' && event.stream.startsWith('item-') ? event.stream.slice(5) : null;
}

export function categoryIdOf(event: FeedEvent): string | null {
  return event.streamType === 'category' && event.stream.startsWith('category-') ? event.stream.slice(9) : null;
}

const asInventory = (event: FeedEvent) => ({ type: event.type, data: event.data }) as InventoryEvent;

/** A screen's item as the shared fold holds it. */
const foldedOf = (item: Item): FoldedItem<string> => ({
  id: item.id,
  name: item.name,
  description: item.description,
  sku: item.sku,
  categoryId: item.categoryId,
  quantity: item.quantity,
  price: item.price,
  threshold: item.threshold,
  imageUrl: item.imageUrl,
  expiryDate: item.expiryDate,
  barcode: item.barcode,
  version: item.version,
  deleted: false,
  createdAt: item.createdAt,
  updatedAt: item.updatedAt,
  // A screen's item holds its total only: where it is, it leaves to the screens that show it.
  levels: {},
  inTransit: 0,
});

/** Writes what the fold changed back onto the screen's item (its snake_case twins too). */
function patchItem(item: Draft<Item>, next: FoldedItem<string>): void {
  const fields = [
    'name',
    'description',
    'sku',
    'categoryId',
    'quantity',
    'price',
    'threshold',
    'imageUrl',
    'expiryDate',
    'barcode',
    'version',
  ] as const;
  const target = item as unknown as Record<string, unknown>;
  for (const field of fields) if (target[field] !== next[field]) target[field] = next[field];
  if (next.updatedAt !== null) item.updatedAt = next.updatedAt;
  item.category_id = item.categoryId;
  item.image_url = item.imageUrl;
}

/** Patches one item with an event of its own stream. */
export function applyToItem(item: Draft<Item>, event: FeedEvent): FeedEffect {
  if (event.version <= item.version) return 'ignored';
  const e = asInventory(event);
  switch (e.type) {
    case 'StockAdjusted':
    case 'StockMoved':
    case 'StockShipped':
    case 'StockReceived':
    case 'TransitWrittenOff':
    case 'ItemUpdated':
    case 'ItemWentLow':
    case 'ItemRecovered': {
      patchItem(item, evolveItem(foldedOf(item), e, { version: event.version, at: event.time })!);
      // A moved item shows its new category's name, which the event does not carry.
      return e.type === 'ItemUpdated' && e.data.changes.categoryId ? 'refetch' : 'applied';
    }
    case 'ItemDeleted':
      return 'gone';
    case 'ItemCreated':
      return 'ignored';
    default:
      return 'refetch';
  }
}

/** A screen's category as the shared fold holds it. */
const foldedCategoryOf = (category: Category): FoldedCategory<string> => ({
  id: category.id,
  name: category.name,
  description: category.description,
  version: category.version,
  deleted: false,
  createdAt: category.createdAt,
  updatedAt: category.updatedAt,
});

/** Patches a screen's category with an event of its own stream. */
function applyToCategory(category: Draft<Category>, event: FeedEvent): void {
  const next = evolveCategory(foldedCategoryOf(category), asCategory(event), {
    version: event.version,
    at: event.time,
  })!;
  category.name = next.name;
  category.description = next.description ?? '';
  category.version = next.version;
  category.updatedAt = next.updatedAt ?? category.updatedAt;
}

const asCategory = (event: FeedEvent) => ({ type: event.type, data: event.data }) as CategoryEvent;

// ---- Inventory page: all categories with item counts ----

export interface OverviewData {
  categories: Category[];
  /** The store's Default Low-Stock Threshold for new items; null when unknown. */
  defaultThreshold?: number | null;
}

/** A change of the store's Default Low-Stock Threshold (Settings), or null. */
function thresholdChange(event: FeedEvent): number | null {
  if (event.streamType !== 'settings' || event.type !== 'SettingsChanged') return null;
  const value = (event.data as { changes?: { lowStockThreshold?: unknown } } | null)?.changes?.lowStockThreshold;
  return typeof value === 'number' ? value : null;
}

export function reduceOverview(draft: Draft<OverviewData>, event: FeedEvent): FeedEffect {
  const threshold = thresholdChange(event);
  if (threshold !== null) {
    draft.defaultThreshold = threshold;
    return 'applied';
  }
  const categoryId = categoryIdOf(event);
  if (categoryId) {
    const index = draft.categories.findIndex((c) => c.id === categoryId);
    const existing = index >= 0 ? draft.categories[index] : undefined;
    if (existing && event.version <= existing.version) return 'ignored';
    switch (event.type) {
      case 'CategoryCreated': {
        if (existing) return 'ignored';
        const created = evolveCategory<string>(null, asCategory(event), { version: event.version, at: event.time })!;
        draft.categories.push({
          id: categoryId,
          name: created.name,
          description: created.description ?? '',
          itemCount: 0,
          createdAt: event.time,
          updatedAt: event.time,
          version: event.version,
        });
        draft.categories.sort((a, b) => a.name.localeCompare(b.name));
        return 'applied';
      }
      case 'CategoryUpdated':
        if (!existing) return 'refetch';
        applyToCategory(existing, event);
        return 'applied';
      case 'CategoryDeleted':
        if (index >= 0) draft.categories.splice(index, 1);
        return 'applied';
      default:
        return 'refetch';
    }
  }
  if (!itemIdOf(event)) return 'ignored';
  switch (event.type) {
    case 'ItemCreated': {
      const category = draft.categories.find((c) => c.id === (event.data as ItemFields).categoryId);
      if (!category) return 'refetch';
      category.itemCount += 1;
      return 'applied';
    }
    case 'ItemUpdated': {
      const move = (event.data as { changes: Changes<ItemFields> }).changes.categoryId;
      if (!move) return 'ignored';
      const from = draft.categories.find((c) => c.id === move.from);
      const to = draft.categories.find((c) => c.id === move.to);
      if (!from || !to) return 'refetch';
      from.itemCount = Math.max(0, from.itemCount - 1);
      to.itemCount += 1;
      return 'applied';
    }
    case 'ItemDeleted':
      // The event doesn't say which category lost the item: ask the server.
      return 'refetch';
    default:
      return 'ignored';
  }
}

export function overviewConcerns(event: FeedEvent): boolean {
  if (categoryIdOf(event) || thresholdChange(event) !== null) return true;
  return itemIdOf(event) !== null && ['ItemCreated', 'ItemDeleted', 'ItemUpdated'].includes(event.type);
}

// ---- Category page: the category and one page of its items ----

export interface CategoryPageData {
  category: Category;
  page: CategoryItemsPage;
}

export function reduceCategoryPage(draft: Draft<CategoryPageData>, event: FeedEvent, categoryId: string): FeedEffect {
  const eventCategory = categoryIdOf(event);
  if (eventCategory) {
    if (eventCategory !== categoryId || event.version <= draft.category.version) return 'ignored';
    if (event.type === 'CategoryDeleted') return 'gone';
    if (event.type === 'CategoryUpdated') {
      const changes = (event.data as { changes: Changes<CategoryFields> }).changes;
      applyToCategory(draft.category, event);
      if (changes.name) for (const item of draft.page.items) item.category = changes.name.to;
      return 'applied';
    }
    return 'ignored';
  }
  const itemId = itemIdOf(event);
  if (!itemId) return 'ignored';
  const item = draft.page.items.find((i) => i.id === itemId);
  if (item) {
    const effect = applyToItem(item, event);
    if (effect === 'gone') return 'refetch'; // a deleted item leaves a gap the next page fills
    if (effect === 'refetch') return 'refetch';
    return effect;
  }
  if (event.type === 'ItemCreated' && (event.data as ItemFields).categoryId === categoryId) return 'refetch';
  if (event.type === 'ItemUpdated') {
    const move = (event.data as { changes: Changes<ItemFields> }).changes.categoryId;
    if (move?.to === categoryId) return 'refetch';
  }
  return 'ignored';
}

export function categoryPageConcerns(event: FeedEvent, categoryId: string, data: CategoryPageData | null): boolean {
  if (categoryIdOf(event) === categoryId) return true;
  const itemId = itemIdOf(event);
  if (!itemId) return false;
  if (event.type === 'ItemCreated') return (event.data as ItemFields).categoryId === categoryId;
  if (event.type === 'ItemUpdated' && (event.data as { changes: Changes<ItemFields> }).changes.categoryId) return true;
  // Without data yet, any item event might be one of ours.
  return data === null || data.page.items.some((i) => i.id === itemId);
}

// ---- Item detail: the item and its history ----

export interface ItemDetailData {
  item: Item;
  history: HistoryEntry[];
  /** Names of categories by id, for history entries that moved the item. */
  categoryNames: Record<string, string>;
  /** Where its stock is, by site and location, and what is in transit. */
  places: ItemLocations;
  /** The store's sites (their names and default locations). */
  sites: Site[];
  /** The locations of the site this browser works at (none for All sites): where Adjust and Move may go. */
  siteLocations: Location[];
}

export function reduceItemDetail(draft: Draft<ItemDetailData>, event: FeedEvent, itemId: string): FeedEffect {
  const categoryId = categoryIdOf(event);
  if (categoryId) {
    if (categoryId !== draft.item.categoryId || event.type !== 'CategoryUpdated') return 'ignored';
    const name = (event.data as { changes: Changes<CategoryFields> }).changes.name;
    if (!name) return 'ignored';
    draft.item.category = name.to;
    draft.categoryNames[categoryId] = name.to;
    return 'applied';
  }
  // A site or location renamed, archived, made default: read again (they change rarely).
  if (event.streamType === 'site' || event.streamType === 'location') return 'refetch';
  if (itemIdOf(event) !== itemId) return 'ignored';
  // Before the item: its version says whether the event is already in.
  applyToPlaces(draft.places, event, draft.item.version);
  const effect = applyToItem(draft.item, event);
  // Patched at once; the history (who, when, what) comes from the server right after.
  return effect === 'applied' ? 'refetch' : effect;
}

export function itemDetailConcerns(event: FeedEvent, itemId: string, data: ItemDetailData | null): boolean {
  if (event.streamType === 'site' || event.streamType === 'location') return true;
  return itemIdOf(event) === itemId || (data !== null && categoryIdOf(event) === data.item.categoryId);
}
