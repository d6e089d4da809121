// The Category page's live data: the category and one page of its items (search, sort,
// page in the params), with the page's writes: +/- stock adjustments (reason
// 'correction', atomic deltas) and deletes. Failures become toasts; nothing is changed
// on screen until the server has said yes.
import type { Category, CategoryItemsPage, Item } from '../../../shared/inventory';
import { takeEarlyJson } from '../../lib/first-data';
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { orQueued } from '../../offline/outbox';
import { toast } from '../../lib/toasts';
import { withUndo } from '../../components/undo';
import { categoryPaths, inventoryApi, type CategoryItemsQuery } from './api';
import { adjustChange, deleteChange } from './undo-labels';
import { categoryPageConcerns, reduceCategoryPage, type CategoryPageData } from './live-reducers';

export interface CategoryPageParams extends CategoryItemsQuery {
  categoryId: string;
}

export type CategoryPageWrite =
  | {
      kind: 'adjust';
      itemId: string;
      name: string;
      delta: 1 | -1;
      /** The default location of the site this browser works at; absent: the server's default (All sites). */
      locationId?: string;
    }
  | { kind: 'delete'; itemId: string; name: string };

async function loadCategoryPage(params: CategoryPageParams): Promise<CategoryPageData> {
  const [category, page] = await Promise.all([
    inventoryApi.category(params.categoryId),
    inventoryApi.categoryItems(params.categoryId, params),
  ]);
  return { category, page };
}

/** The page as a returning user's first screen, when both reads came back early. */
function earlyCategoryPage(params: CategoryPageParams): CategoryPageData | null {
  const early = takeEarlyJson([
    categoryPaths.category(params.categoryId),
    categoryPaths.items(params.categoryId, params),
  ]);
  return early ? { category: early[0] as Category, page: early[1] as CategoryItemsPage } : null;
}

export const categoryPageMachine = createLiveQueryMachine<CategoryPageData, CategoryPageParams, CategoryPageWrite>({
  id: 'categoryPage',
  load: loadCategoryPage,
  initial: earlyCategoryPage,
  reduce: (draft, event, params) => reduceCategoryPage(draft, event, params.categoryId),
  concerns: (event, params, data) => categoryPageConcerns(event, params.categoryId, data),
  // Each write's toast carries Undo of exactly that write.
  runWrite: (write) =>
    write.kind === 'adjust'
      ? orQueued(() =>
          withUndo(
            (key) =>
              inventoryApi.adjustOrQueue(
                write.itemId,
                {
                  delta: write.delta,
                  reason: 'correction',
                  ...(write.locationId ? { locationId: write.locationId } : {}),
                },
                `${write.name}: ${write.delta > 0 ? '+' : ''}${write.delta}`,
                key,
              ),
            (item) => `Stock of "${write.name}" now ${item.quantity}`,
            adjustChange(write.name, write.delta),
          ),
        )
      : withUndo(
          (key) => inventoryApi.deleteItem(write.itemId, undefined, key),
          () => `"${write.name}" deleted`,
          deleteChange(write.name),
        ),
  applyWrite: (draft, write, result) => {
    if (write.kind === 'delete') return 'refetch';
    if (!result) return 'ignored'; // queued offline: the outbox shows it as pending
    const updated = result as Item;
    const item = draft.page.items.find((i) => i.id === write.itemId);
    if (!item || updated.version <= item.version) return 'ignored';
    Object.assign(item, updated);
    return 'applied';
  },
  onWriteFailed: (write, message) => {
    const what = write.kind === 'delete' ? 'Failed to delete inventory item' : 'Failed to update inventory item';
    toast.error(`${what}: ${message}`);
  },
  loadErrorMessage: 'Failed to load inventory data',
});

/** Sum of the +/- still on their way per item, so '-' stops at 0 even mid-flight. */
export function pendingDeltas(
  writes: Record<string, { write: CategoryPageWrite; status: string }>,
): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const { write, status } of Object.values(writes)) {
    if (write.kind === 'adjust' && status === 'pending') sums[write.itemId] = (sums[write.itemId] ?? 0) + write.delta;
  }
  return sums;
}
