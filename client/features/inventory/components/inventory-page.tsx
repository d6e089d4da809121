// The Inventory page (/inventory): search, Add Category, Add Item, and the categories
// that hold items as cards with live counts. Loading, empty and error states per spec;
// a failed load shows the red box with Retry, never made-up data.
import { useCallback, useState } from 'react';
import { useActorRef, useMachine, useSelector } from '@xstate/react';
import type { Category, Item } from '../../../../shared/inventory';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useCan } from '../../../lib/session-context';
import { toast } from '../../../lib/toasts';
import { inventoryOverviewMachine } from '../inventory-overview.machine';
import { itemSearchMachine } from '../item-search.machine';
import { AddCategoryModal } from './add-category-modal';
import { AddItemWizard } from './add-item-wizard';
import { CategoryCard } from './category-card';
import { SearchResults } from './search-results';
import '../inventory.css';
import { SearchField } from '../../../components/search-field';

type Dialog = 'none' | 'category' | 'item';

export function InventoryPage() {
  const overview = useActorRef(inventoryOverviewMachine, { input: { params: null } });
  const state = useSelector(overview, (s) => (s.matches('loading') ? 'loading' : s.matches('error') ? 'error' : 'ready'));
  const categories = useSelector(overview, (s) => s.context.data?.categories ?? null);
  const loadError = useSelector(overview, (s) => s.context.error);
  const [search, sendSearch] = useMachine(itemSearchMachine);
  const [dialog, setDialog] = useState<Dialog>('none');
  const canCreate = useCan('inventory:create');

  const closeDialog = useCallback(() => setDialog('none'), []);
  const categoryAdded = useCallback((category: Category) => {
    toast.success(`Category "${category.name}" added`);
    setDialog('none');
  }, []);
  const itemCreated = useCallback((item: Item) => {
    toast.success(`"${item.name}" added to ${item.category}`);
    setDialog('none');
  }, []);

  const withItems = (categories ?? []).filter((c) => c.itemCount > 0);
  const totalItems = withItems.reduce((sum, c) => sum + c.itemCount, 0);
  const query = search.context.query;

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Inventory</h1>
          <p className="page-subtitle">
            {categories ? `${withItems.length} ${withItems.length === 1 ? 'category' : 'categories'} · ${totalItems} ${totalItems === 1 ? 'item' : 'items'}` : 'Your stock, by category'}
          </p>
        </div>
        {canCreate ? (
          <div className="page-actions">
            <button type="button" className="btn btn-secondary" onClick={() => setDialog('category')}>
              <Icon name="folder-plus" size={18} /> Add Category
            </button>
            <button type="button" className="btn btn-primary" onClick={() => setDialog('item')} disabled={!categories}>
              <Icon name="plus" size={18} /> Add Item
            </button>
          </div>
        ) : null}
      </header>

      <SearchField placeholder="Search items..." label="Search items" value={query} onChange={(value) => sendSearch({ type: 'TYPE', query: value })} />

      {query.trim() ? <SearchResults query={query.trim()} results={search.context.results} searching={!search.matches('showing')} /> : null}

      {state === 'loading' ? <TruckLoader label="Loading inventory..." fullScreen={false} /> : null}
      {state === 'error' ? <ErrorBox title="Failed to load inventory data" message={loadError ?? 'Failed to load inventory data'} onRetry={() => overview.send({ type: 'RETRY' })} /> : null}
      {state === 'ready' && withItems.length === 0 ? (
        <EmptyState icon="box" title="No items found" text="Start by adding your first inventory item or category.">
          {canCreate ? (
            <>
              <button type="button" className="btn btn-secondary" onClick={() => setDialog('category')}>
                <Icon name="folder-plus" size={18} /> Add Category
              </button>
              <button type="button" className="btn btn-primary" onClick={() => setDialog('item')}>
                <Icon name="plus" size={18} /> Add First Item
              </button>
            </>
          ) : null}
        </EmptyState>
      ) : null}
      {state === 'ready' && withItems.length > 0 ? (
        <section aria-label="Categories">
          <h2 className="section-title">Categories</h2>
          <div className="category-grid">
            {withItems.map((category) => (
              <CategoryCard key={category.id} category={category} />
            ))}
          </div>
        </section>
      ) : null}

      {dialog === 'category' ? <AddCategoryModal onClose={closeDialog} onAdded={categoryAdded} /> : null}
      {dialog === 'item' ? (
        <AddItemWizard categories={categories ?? []} onClose={closeDialog} onCreated={itemCreated} onAddCategory={() => setDialog('category')} />
      ) : null}
    </div>
  );
}
