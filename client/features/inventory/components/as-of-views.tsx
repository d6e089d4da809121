// The Inventory, Category and Item pages as they were at a moment (?asOf=):
// read-only, under the banner that names the moment, with links that keep it. Data comes
// from the as-of reads (GET /api/categories?asOf=, /api/inventory?asOf=, ...). The
// Inventory page then can be narrowed to a site or location (?siteId=&locationId=): the
// items placed there then, with their units there then.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { Category, CategoryItemsPage, Item } from '../../../../shared/inventory';
import { api, ApiError } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import { useStoreMoney } from '../../../lib/store-money';
import { AsOfBanner, AsOfControl, withAsOf } from '../../../components/as-of';
import { ErrorBox } from '../../../components/error-box';
import { TruckLoader } from '../../../components/truck-loader';
import { CategoryCard, itemCountLabel } from './category-card';
import { choiceName, PlaceSelects, usePlaceList, type PlaceChoice } from '../../../components/place-selects';

const enc = encodeURIComponent;

interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** The server said 404: the thing did not exist at that moment. */
  missing: boolean;
}

function useLoad<T>(path: string): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null, missing: false });
  useEffect(() => {
    let live = true;
    setState({ data: null, error: null, missing: false });
    api.get<T>(path).then(
      (data) => live && setState({ data, error: null, missing: false }),
      (e: unknown) =>
        live &&
        setState({
          data: null,
          error: e instanceof Error ? e.message : String(e),
          missing: e instanceof ApiError && e.status === 404,
        }),
    );
    return () => {
      live = false;
    };
  }, [path]);
  return state;
}

function Frame({
  asOf,
  title,
  children,
  loading,
  error,
}: {
  asOf: string;
  title: string;
  children: React.ReactNode;
  loading: boolean;
  error: string | null;
}) {
  return (
    <div className="page">
      <AsOfBanner asOf={asOf} />
      <AsOfControl />
      <h1 className="page-title">{title}</h1>
      {error ? (
        <ErrorBox title="Failed to load inventory data" message={error} />
      ) : loading ? (
        <TruckLoader label="Loading..." fullScreen={false} />
      ) : (
        children
      )}
    </div>
  );
}

/** `here`: the place's name, when the items are those placed there (each with its units there). */
function ItemsTable({ items, asOf, here }: { items: Item[]; asOf: string; here?: string }) {
  const money = useStoreMoney();
  return (
    <table className="as-of-table">
      <thead>
        <tr>
          <th>Item</th>
          {/* Beside the name: on a phone the table scrolls sideways and this is what was asked. */}
          {here !== undefined ? <th>At {here}</th> : null}
          <th>SKU</th>
          <th>Category</th>
          <th>Quantity</th>
          <th>Price</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id} data-testid="as-of-item">
            <td>
              <Link to={withAsOf(`/inventory/${item.id}`, asOf)}>{item.name}</Link>
            </td>
            {here !== undefined ? <td data-testid="as-of-quantity-here">{item.quantityHere ?? 0}</td> : null}
            <td>{item.sku}</td>
            <td>{item.category}</td>
            <td data-testid="as-of-quantity">{item.quantity}</td>
            <td>{formatPrice(item.price, money)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The place the URL names (?siteId=&locationId=), and a way to pick another. */
function usePlaceParam(): [PlaceChoice, (choice: PlaceChoice) => void] {
  const [params, setParams] = useSearchParams();
  const siteId = params.get('siteId') || undefined;
  const locationId = params.get('locationId') || undefined;
  const pick = (choice: PlaceChoice) =>
    setParams((p) => {
      p.delete('siteId');
      p.delete('locationId');
      if (choice.siteId) p.set('siteId', choice.siteId);
      if (choice.locationId) p.set('locationId', choice.locationId);
      return p;
    });
  return [{ siteId, locationId }, pick];
}

export function AsOfInventory({ asOf }: { asOf: string }) {
  const money = useStoreMoney();
  const places = usePlaceList();
  const [place, pickPlace] = usePlaceParam();
  const placeQuery = `${place.siteId ? `&siteId=${enc(place.siteId)}` : ''}${place.locationId ? `&locationId=${enc(place.locationId)}` : ''}`;
  const here = placeQuery ? (choiceName(places, place) ?? 'this place') : undefined;
  const hereShort = placeQuery ? (choiceName(places, place, { short: true }) ?? 'this place') : undefined;
  const categories = useLoad<Category[]>(`/categories?asOf=${enc(asOf)}`);
  const items = useLoad<Item[]>(`/inventory?asOf=${enc(asOf)}&limit=500${placeQuery}`);
  const low = (items.data ?? []).filter((i) => i.quantity <= i.threshold);
  const value = (items.data ?? []).reduce((sum, i) => sum + i.quantity * i.price, 0);
  const unitsHere = (items.data ?? []).reduce((sum, i) => sum + (i.quantityHere ?? 0), 0);
  return (
    <Frame
      asOf={asOf}
      title="Inventory"
      loading={!categories.data || !items.data}
      error={categories.error ?? items.error}
    >
      <p>
        {here
          ? `${itemCountLabel(items.data?.length ?? 0)} at ${here} · ${unitsHere} ${unitsHere === 1 ? 'unit' : 'units'} there`
          : `${itemCountLabel(items.data?.length ?? 0)} · total value ${formatPrice(value, money)} · ${low.length} low on stock`}
      </p>
      {/* The live page's cards (padding, icon, '1 item'), leading to the category then. */}
      <div className="category-grid">
        {(categories.data ?? []).map((c) => (
          <CategoryCard key={c.id} category={c} to={withAsOf(`/inventory/category/${c.id}`, asOf)} />
        ))}
      </div>
      <div className="as-of-items-head">
        <h2 className="as-of-section-title">{here ? `Items at ${here}` : 'Items'}</h2>
        <div className="as-of-place">
          <PlaceSelects list={places} value={place} onChange={pickPlace} purpose="Stock at" />
        </div>
      </div>
      <ItemsTable items={items.data ?? []} asOf={asOf} here={hereShort} />
    </Frame>
  );
}

export function AsOfCategory({ categoryId, asOf }: { categoryId: string; asOf: string }) {
  const category = useLoad<Category>(`/categories/${enc(categoryId)}?asOf=${enc(asOf)}`);
  const page = useLoad<CategoryItemsPage>(`/categories/${enc(categoryId)}/items?asOf=${enc(asOf)}&pageSize=100`);
  return (
    <Frame
      asOf={asOf}
      title={category.data?.name ?? 'Category'}
      loading={!category.data || !page.data}
      error={category.error ?? page.error}
    >
      <p>
        <Link to={withAsOf('/inventory', asOf)}>← Inventory</Link> · {itemCountLabel(page.data?.total ?? 0)}
      </p>
      <ItemsTable items={page.data?.items ?? []} asOf={asOf} />
    </Frame>
  );
}

/** The item page at a moment: its name, quantity, price and the rest as they were, read-only. */
export function AsOfItem({ id, asOf }: { id: string; asOf: string }) {
  const money = useStoreMoney();
  const item = useLoad<Item>(`/inventory/${enc(id)}?asOf=${enc(asOf)}`);
  const i = item.data;
  return (
    <Frame asOf={asOf} title={i?.name ?? 'Item'} loading={!i && !item.error} error={item.missing ? null : item.error}>
      <p>
        <Link to={withAsOf('/inventory', asOf)}>← Inventory</Link>
      </p>
      {item.missing ? <p data-testid="as-of-missing">This item did not exist at that moment.</p> : null}
      {i ? (
        <div className="detail-grid">
          <section className="card detail-card" aria-label="Stock then">
            <h2 className="card-title">Stock Information</h2>
            <dl className="stat-list">
              <div>
                <dt>Stock</dt>
                <dd data-testid="as-of-quantity">{i.quantity}</dd>
              </div>
              <div>
                <dt>Stock Threshold</dt>
                <dd>{i.threshold}</dd>
              </div>
              <div>
                <dt>Unit Price</dt>
                <dd>{formatPrice(i.price, money)}</dd>
              </div>
            </dl>
          </section>
          <section className="card detail-card" aria-label="Details then">
            <h2 className="card-title">Item Details</h2>
            <dl className="detail-list">
              <div>
                <dt>SKU</dt>
                <dd>{i.sku}</dd>
              </div>
              <div>
                <dt>Category</dt>
                <dd>
                  <Link to={withAsOf(`/inventory/category/${i.categoryId}`, asOf)}>{i.category}</Link>
                </dd>
              </div>
              <div>
                <dt>Total Value</dt>
                <dd>{formatPrice(i.quantity * i.price, money)}</dd>
              </div>
            </dl>
          </section>
        </div>
      ) : null}
    </Frame>
  );
}
