// The list at a site or location (the Inventory page with a site chosen): each item with its
// quantity here and its total, "Where is it", and -/+ at the filter's location (or the site's
// default location), live. Items that were here and are no more stay, at 0 (the API lists
// every item ever placed here, so "none left here" is an answer, not a missing row).
import { memo } from 'react';
import { Link } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import type { Item } from '../../../../shared/inventory';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { WhereIsIt } from '../../../components/where-is-it';
import type { LiveQueryActor } from '../../../lib/live-query.machine';
import { newWriteId } from '../../../lib/live-query.machine';
import { useCan } from '../../../lib/session-context';
import {
  filterKey,
  PLACED_MAX,
  PLACED_PAGE,
  type PlacedItemsParams,
  type PlacedItemsWrite,
} from '../placed-items.machine';
import type { PlacedItemsData } from '../placed-items-live';
import { ItemImage } from './item-image';

type PlacedActor = LiveQueryActor<PlacedItemsData, PlacedItemsParams, PlacedItemsWrite>;

export function PlacedItemsList({
  list,
  title,
  adjustAt,
}: {
  list: PlacedActor;
  /** "Main store" or "Main store › Back room". */
  title: string;
  /** Where -/+ adjust: the filter's location or the site's default; null until known. */
  adjustAt: { id: string; name: string } | null;
}) {
  const snapshot = useSelector(list, (s) => s);
  const canAdjust = useCan('stock:update');
  const data = snapshot.context.data;
  const params = snapshot.context.params;

  if (snapshot.matches('error'))
    return (
      <ErrorBox
        title="Failed to load inventory data"
        message={snapshot.context.error ?? 'Failed to load inventory data'}
        onRetry={() => list.send({ type: 'RETRY' })}
      />
    );
  if (!data || data.filterKey !== filterKey(params.filter))
    return <TruckLoader label="Loading stock here..." fullScreen={false} />;
  if (data.items.length === 0)
    return <EmptyState icon="map-pin" title="Nothing here yet" text={`No item has ever been kept at ${title}.`} />;

  const pending: Record<string, number> = {};
  for (const { write, status } of Object.values(snapshot.context.writes))
    if (status === 'pending') pending[write.itemId] = (pending[write.itemId] ?? 0) + write.delta;
  const adjust = (item: Item, delta: 1 | -1) =>
    adjustAt &&
    list.send({
      type: 'WRITE',
      id: newWriteId(),
      write: {
        kind: 'adjust',
        itemId: item.id,
        name: item.name,
        delta,
        locationId: adjustAt.id,
        locationName: adjustAt.name,
      },
    });
  const more = data.nextCursor !== null && params.limit < PLACED_MAX;

  return (
    <section className="placed-items" aria-labelledby="placed-items-title">
      <h2 id="placed-items-title" className="section-title">
        Stock at {title}
      </h2>
      <ul className="placed-list card">
        {data.items.map((item) => (
          <PlacedRow
            key={item.id}
            item={item}
            pendingDelta={pending[item.id] ?? 0}
            canAdjust={canAdjust && adjustAt !== null}
            onAdjust={adjust}
          />
        ))}
      </ul>
      {more ? (
        <button
          type="button"
          className="btn btn-secondary placed-more"
          onClick={() => list.send({ type: 'SET_PARAMS', params: { ...params, limit: params.limit + PLACED_PAGE } })}
        >
          Show more
        </button>
      ) : null}
      {data.nextCursor !== null && !more ? (
        <p className="section-hint">The first {PLACED_MAX} items: choose a location to narrow the list.</p>
      ) : null}
    </section>
  );
}

const PlacedRow = memo(function PlacedRow({
  item,
  pendingDelta,
  canAdjust,
  onAdjust,
}: {
  item: Item;
  pendingDelta: number;
  canAdjust: boolean;
  onAdjust: (item: Item, delta: 1 | -1) => void;
}) {
  const here = item.quantityHere ?? 0;
  return (
    <li className="placed-row" aria-label={item.name} data-testid="placed-row">
      <ItemImage url={item.imageUrl} name={item.name} className="placed-thumb" />
      <span className="placed-main">
        <Link to={`/inventory/${item.id}`}>
          <strong>{item.name}</strong>
        </Link>
        <small>
          {item.sku} · {item.category}
        </small>
      </span>
      <span className="placed-qty">
        <span>
          <strong data-testid="quantity-here">{here}</strong> here
        </span>
        <small data-testid="quantity-total">{item.quantity} in all</small>
      </span>
      <WhereIsIt itemId={item.id} itemName={item.name} compact />
      {canAdjust ? (
        <span className="stepper" role="group" aria-label={`Stock of ${item.name} here`}>
          <button
            type="button"
            className="stepper-button"
            aria-label={`Decrease quantity of ${item.name} here`}
            onClick={() => onAdjust(item, -1)}
            disabled={here + pendingDelta <= 0}
          >
            <Icon name="minus" size={16} />
          </button>
          <button
            type="button"
            className="stepper-button"
            aria-label={`Increase quantity of ${item.name} here`}
            onClick={() => onAdjust(item, 1)}
          >
            <Icon name="plus" size={16} />
          </button>
        </span>
      ) : null}
    </li>
  );
});
