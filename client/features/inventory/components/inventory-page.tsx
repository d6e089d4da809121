// The Inventory page (/inventory): search, Export CSV, Add Category, Add Item, and the categories
// that hold items as cards with live counts. Loading, empty and error states of their own;
// a failed load shows the red box with Retry, never made-up data.
import { useAsOf, AsOfControl } from '../../../components/as-of';
import { useUndoShortcut, offerUndo } from '../../../components/undo';
import { addCategoryChange, addChange } from '../undo-labels';
import { AsOfInventory } from './as-of-views';
import { useCallback, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useActorRef, useMachine, useSelector } from '@xstate/react';
import type { Category, Item } from '../../../../shared/inventory';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useCan, useSession } from '../../../lib/session-context';
import { inventoryOverviewMachine } from '../inventory-overview.machine';
import { itemSearchMachine } from '../item-search.machine';
import { AddCategoryModal } from './add-category-modal';
import { AddItemWizard } from './add-item-wizard';
import { CategoryCard } from './category-card';
import { ExportCsvButton } from './export-csv-button';
import { useCategoryAdmin } from './category-dialogs';
import { SearchResults } from './search-results';
import '../inventory.css';
import { SearchField } from '../../../components/search-field';
import { useDocumentWedge } from '../../../lib/use-keyboard-wedge';
import { chooseSite, useChosenSite } from '../../../lib/chosen-site';
import type { PlaceFilter } from '../api';
import { placeFilterOf, withPlaceFilter } from '../place-filter';
import { filterKey, PLACED_PAGE, placedItemsMachine } from '../placed-items.machine';
import { sitesMachine } from '../sites.machine';
import { PlacedItemsList } from './placed-items-list';
import { SitePicker } from './site-picker';
import '../stock-places.css';

type Dialog = 'none' | 'category' | 'item';

export function InventoryPage() {
  const asOf = useAsOf();
  useUndoShortcut();
  // ?asOf=: the whole store as it was then, read-only.
  if (asOf) return <AsOfInventory key={asOf} asOf={asOf} />;
  return <LiveInventoryPage />;
}

function LiveInventoryPage() {
  const overview = useActorRef(inventoryOverviewMachine, { input: { params: null } });
  const state = useSelector(overview, (s) =>
    s.matches('loading') ? 'loading' : s.matches('error') ? 'error' : 'ready',
  );
  const categories = useSelector(overview, (s) => s.context.data?.categories ?? null);
  const loadError = useSelector(overview, (s) => s.context.error);
  const [search, sendSearch] = useMachine(itemSearchMachine);
  const canCreate = useCan('inventory:create');
  const canImport = useCan('inventory:manage');
  // /inventory?barcode=CODE opens Add Item with the code filled in (a scan of an unknown code).
  const [searchParams, setSearchParams] = useSearchParams();
  const scannedBarcode = searchParams.get('barcode') ?? undefined;
  const [dialog, setDialog] = useState<Dialog>(scannedBarcode && canCreate ? 'item' : 'none');
  const admin = useCategoryAdmin();
  const defaultThreshold = useSelector(overview, (s) => s.context.data?.defaultThreshold ?? null);
  const place = usePlaceFilter();
  // A hardware scanner works here with no field focused (a shelf label, then items to put away).
  useDocumentWedge();

  const closeDialog = useCallback(() => {
    setDialog('none');
    // The code was for that one item: a later Add Item starts empty.
    setSearchParams(
      (params) => {
        params.delete('barcode');
        return params;
      },
      { replace: true },
    );
  }, [setSearchParams]);
  const categoryAdded = useCallback((category: Category) => {
    offerUndo(`Category "${category.name}" added`, addCategoryChange(category.name), {
      streamId: `category-${category.id}`,
      version: category.version,
    });
    setDialog('none');
  }, []);
  const itemCreated = useCallback(
    (item: Item) => {
      offerUndo(`"${item.name}" added to ${item.category}`, addChange(item.name), {
        streamId: `item-${item.id}`,
        version: item.version,
      });
      closeDialog();
    },
    [closeDialog],
  );

  const withItems = (categories ?? []).filter((c) => c.itemCount > 0);
  // The grid shows only categories with items, what there is to stock; those who manage
  // categories also see the empty ones below it, or they could never reach them to rename
  // or delete.
  const empty = admin.canEdit || admin.canDelete ? (categories ?? []).filter((c) => c.itemCount === 0) : [];
  const totalItems = withItems.reduce((sum, c) => sum + c.itemCount, 0);
  const query = search.context.query;

  return (
    <div className="page">
      <AsOfControl />
      <header className="page-header">
        <div>
          <h1 className="page-title">Inventory</h1>
          <p className="page-subtitle">
            {categories
              ? `${withItems.length} ${withItems.length === 1 ? 'category' : 'categories'} · ${totalItems} ${totalItems === 1 ? 'item' : 'items'}`
              : 'Your stock, by category'}
          </p>
        </div>
        <div className="page-actions">
          {/* What the search shows, or every item when nothing is searched; at a chosen place, by location. */}
          <ExportCsvButton
            filter={{ q: query, siteId: place.filter?.siteId, locationId: place.filter?.locationId ?? undefined }}
          />
          {canImport ? (
            <Link className="btn btn-secondary" to="/inventory/import">
              <Icon name="list" size={18} /> Import CSV
            </Link>
          ) : null}
          {canCreate ? (
            <>
              <button type="button" className="btn btn-secondary" onClick={() => setDialog('category')}>
                <Icon name="folder-plus" size={18} /> Add Category
              </button>
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => setDialog('item')}
                disabled={!categories}
              >
                <Icon name="plus" size={18} /> Add Item
              </button>
            </>
          ) : null}
        </div>
      </header>

      <SitePicker sites={place.sites} locations={place.locations} filter={place.filter} onChange={place.choose} />

      <SearchField
        placeholder="Search items..."
        label="Search items"
        value={query}
        onChange={(value) => sendSearch({ type: 'TYPE', query: value })}
      />

      {query.trim() ? (
        <SearchResults query={query.trim()} results={search.context.results} searching={!search.matches('showing')} />
      ) : null}

      {place.filter ? <PlacedItemsList list={place.list} title={place.title} adjustAt={place.adjustAt} /> : null}

      {state === 'loading' ? <TruckLoader label="Loading inventory..." fullScreen={false} /> : null}
      {state === 'error' ? (
        <ErrorBox
          title="Failed to load inventory data"
          message={loadError ?? 'Failed to load inventory data'}
          onRetry={() => overview.send({ type: 'RETRY' })}
        />
      ) : null}
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
              <CategoryCard key={category.id} category={category} actions={admin.actionsFor(category)} />
            ))}
          </div>
        </section>
      ) : null}
      {state === 'ready' && empty.length > 0 ? (
        <section aria-labelledby="empty-categories-title" className="empty-categories">
          <h2 className="section-title" id="empty-categories-title">
            Empty categories
          </h2>
          <p className="section-hint">
            Categories without items yet. Everyone else sees them here once they hold an item.
          </p>
          <div className="category-grid">
            {empty.map((category) => (
              <CategoryCard key={category.id} category={category} actions={admin.actionsFor(category)} />
            ))}
          </div>
        </section>
      ) : null}
      {admin.dialogs}

      {dialog === 'category' ? <AddCategoryModal onClose={closeDialog} onAdded={categoryAdded} /> : null}
      {dialog === 'item' ? (
        <AddItemWizard
          categories={categories ?? []}
          defaultThreshold={defaultThreshold}
          barcode={scannedBarcode}
          onClose={closeDialog}
          onCreated={itemCreated}
          onAddCategory={() => setDialog('category')}
        />
      ) : null}
    </div>
  );
}

/**
 * The page's place filter: the URL's ?siteId=&locationId= (a URL naming no site takes the one
 * this browser remembers, and the URL then says so), the sites to pick from, the list at the
 * chosen place, and where its -/+ adjust.
 */
function usePlaceFilter() {
  const [searchParams, setSearchParams] = useSearchParams();
  const remembered = useChosenSite();
  const filter = placeFilterOf(searchParams, remembered);
  const sitesActor = useActorRef(sitesMachine, { input: { params: null } });
  const sites = useSelector(sitesActor, (s) => s.context.data?.sites ?? null);
  const list = useActorRef(placedItemsMachine, { input: { params: { filter, limit: PLACED_PAGE } } });
  const locations = useSelector(list, (s) => s.context.data?.locations ?? []);

  const choose = useCallback(
    (next: PlaceFilter | null) => {
      chooseSite(next?.siteId ?? null);
      setSearchParams((params) => withPlaceFilter(params, next), { replace: true });
    },
    [setSearchParams],
  );
  const key = filterKey(filter);
  useEffect(() => {
    // The URL says which site the list shows, and the browser remembers it.
    if (filter && !searchParams.has('siteId')) choose(filter);
    else if (filter?.siteId !== (remembered ?? undefined)) chooseSite(filter?.siteId ?? null);
    const current = list.getSnapshot().context.params;
    if (filterKey(current.filter) !== key) list.send({ type: 'SET_PARAMS', params: { filter, limit: PLACED_PAGE } });
  }, [key]);
  // A site that is gone (a link from another store, a remembered id, a site no longer theirs)
  // shows All sites; someone whose role holds at one site only (roles per site) sees it.
  const { user } = useSession();
  useEffect(() => {
    if (sites && filter && !sites.some((s) => s.id === filter.siteId)) choose(null);
    else if (sites?.length === 1 && !filter && user.siteRoles) choose({ siteId: sites[0]!.id, locationId: null });
  }, [sites, key, user.siteRoles]);

  const site = filter && sites ? sites.find((s) => s.id === filter.siteId) : undefined;
  const location = filter?.locationId ? locations.find((l) => l.id === filter.locationId) : undefined;
  const defaultLocation = site ? locations.find((l) => l.id === site.defaultLocationId) : undefined;
  const adjustAt = location ?? defaultLocation;
  return {
    filter,
    sites: sites ?? [],
    locations,
    list,
    choose,
    title: site ? `${site.name}${location ? ` › ${location.name}` : ''}` : '…',
    adjustAt: adjustAt ? { id: adjustAt.id, name: adjustAt.name } : null,
  };
}
