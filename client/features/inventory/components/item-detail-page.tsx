// The item page (/inventory/{id}): picture, name, description, SKU and category; Stock
// Information; the Low Stock Alert; Item Details (total value, dates); Stock Status; the
// item's history; Stock by location (by site, with in transit) and Where is it; Adjust stock
// at a location and Move stock (with stock permission) and Edit Item (with manage
// permission). Everything updates live; a deleted or unknown item shows 'Item Not Found'.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { isLowStock } from '../../../../shared/inventory';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { formatDate, formatDateTime, formatPrice } from '../../../lib/format';
import { useStoreMoney } from '../../../lib/store-money';
import { newWriteId } from '../../../lib/live-query.machine';
import { useCan } from '../../../lib/session-context';
import { itemDetailMachine } from '../item-detail.machine';
import { AdjustStockDialog } from './adjust-stock-dialog';
import { ItemHistory } from './item-history';
import { useUndoShortcut } from '../../../components/undo';
import { AsOfControl, useAsOf } from '../../../components/as-of';
import { AsOfItem } from './as-of-views';
import { ItemImage } from './item-image';
import { StockStatusPanel } from './stock-status-panel';
import { SiteThresholdsCard } from './site-thresholds-card';
import { PendingQuantity } from '../../../offline/pending-mark';
import { WhereIsIt } from '../../../components/where-is-it';
import { chosenSite } from '../../../lib/chosen-site';
import { toast } from '../../../lib/toasts';
import { adjustChoice } from '../adjust-location';
import { ItemPlacesCard } from './item-places-card';
import { MoveStockDialog } from './move-stock-dialog';
import '../inventory.css';
import '../stock-places.css';

export function ItemDetailPage() {
  const { id = '' } = useParams();
  const asOf = useAsOf();
  useUndoShortcut();
  // ?asOf=: the item as it was then, read-only.
  if (asOf) return <AsOfItem key={`${id}@${asOf}`} id={id} asOf={asOf} />;
  return <ItemDetail key={id} id={id} />;
}

function ItemDetail({ id }: { id: string }) {
  const money = useStoreMoney();
  // The site this browser works at when the page opened: Adjust and Move start there.
  const [siteId] = useState(chosenSite);
  const detail = useActorRef(itemDetailMachine, { input: { params: { id, siteId } } });
  const [moving, setMoving] = useState(false);
  const snapshot = useSelector(detail, (s) => s);
  const [adjustId, setAdjustId] = useState<string | null>(null);
  const [adjustOpen, setAdjustOpen] = useState(false);
  const canAdjust = useCan('stock:update');
  const canEdit = useCan('inventory:manage');
  const data = snapshot.context.data;
  const adjustWrite = adjustId ? snapshot.context.writes[adjustId] : undefined;

  // The adjustment is done when its write has left the list without failing.
  const adjustDone = adjustOpen && adjustId !== null && !adjustWrite;
  useEffect(() => {
    if (!adjustDone) return;
    setAdjustOpen(false);
    setAdjustId(null);
  }, [adjustDone]);

  if (snapshot.matches('notFound')) {
    return (
      <div className="page">
        <EmptyState
          icon="box"
          title="Item Not Found"
          text="The inventory item you're looking for doesn't exist or has been removed."
        >
          <Link to="/inventory" className="btn btn-primary">
            <Icon name="arrow-left" size={18} /> Back to Inventory
          </Link>
        </EmptyState>
      </div>
    );
  }

  const backLink = (
    <Link to="/inventory" className="btn btn-ghost back-link">
      <Icon name="arrow-left" size={18} /> Back to Inventory
    </Link>
  );

  if (!data) {
    return (
      <div className="page">
        {backLink}
        {snapshot.matches('error') ? (
          <ErrorBox
            title="Failed to load inventory data"
            message={snapshot.context.error ?? ''}
            onRetry={() => detail.send({ type: 'RETRY' })}
          />
        ) : (
          <TruckLoader label="Loading item..." fullScreen={false} />
        )}
      </div>
    );
  }

  const { item, history, categoryNames, places } = data;
  const low = isLowStock(item);

  return (
    <div className="page">
      <AsOfControl />
      <div className="detail-topbar">
        {backLink}
        <div className="page-actions">
          <WhereIsIt itemId={item.id} itemName={item.name} />
          {canAdjust ? (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => {
                setAdjustId(null);
                setAdjustOpen(true);
              }}
            >
              <Icon name="box" size={18} /> Adjust stock
            </button>
          ) : null}
          <Link to={`/inventory/labels?items=${encodeURIComponent(item.id)}`} className="btn btn-secondary">
            <Icon name="printer" size={18} /> Print label
          </Link>
          {canEdit ? (
            <Link to={`/inventory/${item.id}/edit`} className="btn btn-primary">
              <Icon name="edit" size={18} /> Edit Item
            </Link>
          ) : null}
        </div>
      </div>

      {low ? (
        <div className="alert-banner" role="alert">
          <Icon name="alert" size={20} />
          <div>
            <strong>Low Stock Alert</strong>
            <p>
              Only {item.quantity} left, at or below the threshold of {item.threshold}. Time to reorder.
            </p>
          </div>
        </div>
      ) : null}

      <section className="card detail-hero">
        <ItemImage url={item.imageUrl} name={item.name} className="detail-image" />
        <div className="detail-hero-body">
          <Link to={`/inventory/category/${item.categoryId}`} className="badge badge-neutral detail-category">
            <Icon name="folder" size={13} /> {item.category}
          </Link>
          <h1 className="page-title">{item.name}</h1>
          <p className="detail-sku">
            SKU <code>{item.sku}</code>
            {item.barcode ? (
              <span className="detail-barcode">
                Barcode <code data-testid="item-barcode">{item.barcode}</code>
              </span>
            ) : null}
          </p>
          <p className="detail-description">{item.description || 'No description.'}</p>
        </div>
      </section>

      <div className="detail-grid">
        <section className="card detail-card" aria-labelledby="stock-info-title">
          <h2 id="stock-info-title" className="card-title">
            Stock Information
          </h2>
          <dl className="stat-list">
            <div>
              <dt>Current Stock</dt>
              <dd className={low ? 'tone-danger' : ''} data-testid="current-stock">
                <PendingQuantity itemId={item.id} quantity={item.quantity} />
              </dd>
            </div>
            <div>
              <dt>Stock Threshold</dt>
              <dd>{item.threshold}</dd>
            </div>
            <div>
              <dt>Unit Price</dt>
              <dd>{formatPrice(item.price, money)}</dd>
            </div>
          </dl>
        </section>
        <StockStatusPanel quantity={item.quantity} threshold={item.threshold} />
        <section className="card detail-card" aria-labelledby="item-details-title">
          <h2 id="item-details-title" className="card-title">
            Item Details
          </h2>
          <dl className="detail-list">
            <div>
              <dt>Total Value</dt>
              <dd>{formatPrice(item.quantity * item.price, money)}</dd>
            </div>
            <div>
              <dt>Created At</dt>
              <dd>{formatDateTime(item.createdAt)}</dd>
            </div>
            <div>
              <dt>Last Updated</dt>
              <dd>{formatDateTime(item.updatedAt)}</dd>
            </div>
            {item.expiryDate ? (
              <div>
                <dt>Expiry Date</dt>
                <dd>{formatDate(item.expiryDate)}</dd>
              </div>
            ) : null}
          </dl>
        </section>
      </div>

      <ItemPlacesCard places={places} onMove={canAdjust ? () => setMoving(true) : undefined} />

      <SiteThresholdsCard itemId={item.id} canEdit={canEdit} />

      <ItemHistory
        entries={history}
        categoryNames={categoryNames}
        onReverted={() => detail.send({ type: 'REFETCH' })}
      />

      {adjustOpen ? (
        <AdjustStockDialog
          itemName={item.name}
          quantity={item.quantity}
          choice={adjustChoice(places, data.sites, data.siteLocations, siteId)}
          busy={adjustWrite?.status === 'pending'}
          error={adjustWrite?.status === 'failed' ? adjustWrite.error : null}
          onClose={() => {
            if (adjustId) detail.send({ type: 'DISMISS_WRITE', id: adjustId });
            setAdjustOpen(false);
            setAdjustId(null);
          }}
          onSubmit={(adjustment) => {
            if (adjustId) detail.send({ type: 'DISMISS_WRITE', id: adjustId });
            const writeId = newWriteId();
            setAdjustId(writeId);
            detail.send({ type: 'WRITE', id: writeId, write: { kind: 'adjust', name: item.name, ...adjustment } });
          }}
        />
      ) : null}
      {moving ? (
        <MoveStockDialog
          itemId={item.id}
          itemName={item.name}
          places={places}
          preferredSiteId={siteId}
          onClose={() => setMoving(false)}
          onMoved={({ quantity, from, to }) => {
            setMoving(false);
            toast.success(`Moved ${quantity} ${item.name} from ${from} to ${to}`);
          }}
        />
      ) : null}
    </div>
  );
}
