// The item page's "Stock by location": a small table of its quantities grouped by site (each
// site with its total), what is in transit between sites when there is any, and the total of
// both; Move stock (with stock permission) when it is somewhere to move from. Live: the
// page's data folds each event of the item (item-places-live.ts).
import type { ItemLocations } from '../../../../shared/inventory';
import { Icon } from '../../../components/icons';
import { placePathText, stockBySite } from '../../../lib/item-places';

export function ItemPlacesCard({
  places,
  onMove,
}: {
  places: ItemLocations;
  /** Opens the Move dialog; absent without stock permission. */
  onMove?: () => void;
}) {
  const sites = stockBySite(places.locations);
  const total = sites.reduce((sum, site) => sum + site.total, 0) + places.inTransit;
  return (
    <section className="card detail-card item-places" aria-labelledby="item-places-title">
      <header className="item-places-head">
        <h2 id="item-places-title" className="card-title">
          Stock by location
        </h2>
        {onMove && sites.length > 0 ? (
          <button type="button" className="btn btn-sm btn-secondary" onClick={onMove}>
            <Icon name="move" size={16} /> Move stock
          </button>
        ) : null}
      </header>
      {sites.length === 0 ? <p className="muted">None at any location.</p> : null}
      <table className="places-table" aria-labelledby="item-places-title" data-testid="item-places">
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Location</th>
            <th scope="col">Quantity</th>
          </tr>
        </thead>
        {sites.map((site) => (
          <tbody key={site.siteId}>
            <tr className="places-site">
              <th scope="rowgroup">{site.siteName}</th>
              <td>{site.total}</td>
            </tr>
            {site.locations.map((l) => (
              <tr key={l.locationId} className="places-location" data-testid="place-row">
                <th scope="row">
                  {placePathText(l)}
                  {l.locationCode ? <small className="places-code">{l.locationCode}</small> : null}
                </th>
                <td>{l.quantity}</td>
              </tr>
            ))}
          </tbody>
        ))}
        <tfoot>
          {places.inTransit > 0 ? (
            <tr className="places-transit">
              <th scope="row">
                <Icon name="truck" size={15} /> In transit
              </th>
              <td data-testid="in-transit">{places.inTransit}</td>
            </tr>
          ) : null}
          <tr className="places-total">
            <th scope="row">Total</th>
            <td>{total}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
