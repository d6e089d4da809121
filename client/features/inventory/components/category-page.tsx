// The Category page (/inventory/category/{id}): breadcrumb, search over name and
// description, Name/Price/Stock sorting, item cards with live stock and +/- buttons,
// 12 a page with numbered buttons, delete with confirmation, and the empty and
// 'Category Not Found' states. Managers can edit (rename, describe) and delete the
// category itself from the header.
import { useAsOf, AsOfControl } from '../../../components/as-of';
import { useUndoShortcut } from '../../../components/undo';
import { AsOfCategory } from './as-of-views';
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import type { Item } from '../../../../shared/inventory';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { Pagination } from '../../../components/pagination';
import { TruckLoader } from '../../../components/truck-loader';
import { newWriteId } from '../../../lib/live-query.machine';
import { useCan } from '../../../lib/session-context';
import { useDocumentWedge } from '../../../lib/use-keyboard-wedge';
import type { ItemSort } from '../api';
import { categoryPageMachine, pendingDeltas, type CategoryPageParams } from '../category-page.machine';
import { useCategoryAdmin } from './category-dialogs';
import { ExportCsvButton } from './export-csv-button';
import { ItemCard } from './item-card';
import { nextSort, SortBar } from './sort-bar';
import '../inventory.css';
import { SearchField } from '../../../components/search-field';
import { useChosenSiteDefault } from './use-chosen-site-default';

const SEARCH_DELAY_MS = 250;

export function CategoryPage() {
  const { categoryId = '' } = useParams();
  const asOf = useAsOf();
  useUndoShortcut();
  // ?asOf=: the category as it was then, read-only.
  if (asOf) return <AsOfCategory key={`${categoryId}@${asOf}`} categoryId={categoryId} asOf={asOf} />;
  return <LiveCategoryPage categoryId={categoryId} />;
}

function LiveCategoryPage({ categoryId }: { categoryId: string }) {
  const initial: CategoryPageParams = { categoryId, q: '', sort: 'name', order: 'asc', page: 1 };
  const page = useActorRef(categoryPageMachine, { input: { params: initial } });
  const snapshot = useSelector(page, (s) => s);
  const params = snapshot.context.params;
  const data = snapshot.context.data;
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<Item | null>(null);
  const canAdjust = useCan('stock:update');
  const canEdit = useCan('inventory:manage');
  const canDelete = useCan('records:delete');
  // A hardware scanner works here with no field focused: the shell opens the scanned item.
  useDocumentWedge();
  const navigate = useNavigate();
  const admin = useCategoryAdmin({
    onSaved: () => page.send({ type: 'REFETCH' }),
    onDeleted: () => navigate('/inventory', { replace: true }),
  });

  // -/+ put and take stock at the default location of the site this browser works at.
  const adjustAt = useChosenSiteDefault();
  const onAdjust = useCallback(
    (item: Item, delta: 1 | -1) =>
      page.send({
        type: 'WRITE',
        id: newWriteId(),
        write: {
          kind: 'adjust',
          itemId: item.id,
          name: item.name,
          delta,
          ...(adjustAt ? { locationId: adjustAt } : {}),
        },
      }),
    [page, adjustAt],
  );

  const setParams = (patch: Partial<CategoryPageParams>) =>
    page.send({ type: 'SET_PARAMS', params: { ...page.getSnapshot().context.params, ...patch } });

  // A different category in the URL: start over.
  useEffect(() => {
    if (page.getSnapshot().context.params.categoryId !== categoryId) {
      setSearch('');
      page.send({ type: 'SET_PARAMS', params: { categoryId, q: '', sort: 'name', order: 'asc', page: 1 } });
    }
  }, [categoryId, page]);

  useEffect(() => {
    const timer = setTimeout(() => {
      if (page.getSnapshot().context.params.q !== search) setParams({ q: search, page: 1 });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  // The dialogs sit beside the page in both views: a delete from this page may reach the
  // page (as the feed's event) before the dialog hears its own answer, and a remounted
  // dialog would start over.
  if (snapshot.matches('notFound')) {
    return (
      <>
        <div className="page">
          <EmptyState icon="folder" title="Category Not Found" text="This category doesn't exist or has been removed.">
            <Link to="/inventory" className="btn btn-primary">
              Return to Inventory
            </Link>
          </EmptyState>
        </div>
        {admin.dialogs}
      </>
    );
  }

  const pending = pendingDeltas(snapshot.context.writes);
  const items = data?.page.items ?? [];
  const loadingFirst = snapshot.matches('loading') && !data;
  const refreshing = snapshot.matches('loading') && data !== null;

  return (
    <>
      <div className="page">
        <AsOfControl />
        <nav className="breadcrumb" aria-label="Breadcrumb">
          <ol>
            <li>
              <Link to="/dashboard">
                <Icon name="home" size={14} /> Home
              </Link>
            </li>
            <li>
              <Link to="/inventory">Inventory</Link>
            </li>
            <li aria-current="page">{data?.category.name ?? '…'}</li>
          </ol>
        </nav>
        <header className="page-header">
          <div>
            <h1 className="page-title">{data?.category.name ?? 'Category'}</h1>
            <p className="page-subtitle">
              {data?.category.description ? `${data.category.description} · ` : ''}
              {data ? `${data.page.total} ${data.page.total === 1 ? 'item' : 'items'}` : 'Loading items...'}
            </p>
          </div>
          <div className="page-actions">
            <Link to="/inventory" className="btn btn-secondary">
              <Icon name="arrow-left" size={18} /> Back to Categories
            </Link>
            {data && data.page.total > 0 ? (
              <ExportCsvButton filter={{ categoryId, q: params.q, sort: params.sort, order: params.order }} />
            ) : null}
            {data && data.page.total > 0 ? (
              <Link to={`/inventory/labels?category=${encodeURIComponent(categoryId)}`} className="btn btn-secondary">
                <Icon name="printer" size={18} /> Print labels
              </Link>
            ) : null}
            {data && admin.canEdit ? (
              <button
                type="button"
                className="btn btn-secondary"
                aria-label="Edit category"
                onClick={() => admin.edit(data.category)}
              >
                <Icon name="edit" size={18} /> Edit
              </button>
            ) : null}
            {data && admin.canDelete ? (
              <button
                type="button"
                className="btn btn-danger-outline"
                aria-label="Delete category"
                onClick={() => admin.remove(data.category)}
              >
                <Icon name="trash" size={18} /> Delete
              </button>
            ) : null}
          </div>
        </header>

        <div className="toolbar">
          <SearchField
            placeholder="Search items..."
            label="Search this category"
            value={search}
            onChange={(value) => setSearch(value)}
          />
          <SortBar
            sort={params.sort}
            order={params.order}
            onSort={(column: ItemSort) => setParams({ ...nextSort(params, column), page: 1 })}
          />
        </div>

        {loadingFirst ? <TruckLoader label="Loading inventory..." fullScreen={false} /> : null}
        {snapshot.matches('error') ? (
          <ErrorBox
            title="Failed to load inventory data"
            message={snapshot.context.error ?? 'Failed to load inventory data'}
            onRetry={() => page.send({ type: 'RETRY' })}
          />
        ) : null}
        {data && items.length === 0 && !snapshot.matches('error') ? (
          <EmptyState
            icon="search"
            title="No items found"
            text={params.q ? 'No items match your search criteria.' : 'This category is empty.'}
          />
        ) : null}
        {items.length > 0 && !snapshot.matches('error') ? (
          <section aria-labelledby="category-items-title">
            {/* Item cards title themselves with h3: this h2 keeps the heading levels in order for screen readers. */}
            <h2 id="category-items-title" className="visually-hidden">
              Items
            </h2>
            <div className={refreshing ? 'item-grid is-refreshing' : 'item-grid'} aria-busy={refreshing}>
              {items.map((item) => (
                <ItemCard
                  key={item.id}
                  item={item}
                  pendingDelta={pending[item.id] ?? 0}
                  canAdjust={canAdjust}
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onAdjust={onAdjust}
                  onDelete={setDeleting}
                />
              ))}
            </div>
          </section>
        ) : null}
        {data ? (
          <Pagination page={data.page.page} totalPages={data.page.totalPages} onPage={(p) => setParams({ page: p })} />
        ) : null}

        {deleting ? (
          <ConfirmDialog
            title="Delete item"
            message={`Are you sure you want to delete "${deleting.name}"?`}
            confirmLabel="Delete"
            onCancel={() => setDeleting(null)}
            onConfirm={() => {
              page.send({
                type: 'WRITE',
                id: newWriteId(),
                write: { kind: 'delete', itemId: deleting.id, name: deleting.name },
              });
              setDeleting(null);
            }}
          />
        ) : null}
      </div>
      {admin.dialogs}
    </>
  );
}
