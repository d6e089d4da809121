// Low Stock by Site, under the stat cards in a store of several sites: each active site with
// its open low-stock alerts (and how many of them are out of stock there), opening that
// site's wall display. An item low at two sites counts at each.
import { Link } from 'react-router-dom';
import type { SiteLowStock } from '../../../../shared/dashboard';
import { Icon } from '../../../components/icons';
import { formatCount } from '../../../lib/format';

export function LowStockBySite({ sites }: { sites: SiteLowStock[] }) {
  return (
    <section className="card low-by-site" aria-labelledby="low-by-site-title">
      <h2 id="low-by-site-title" className="card-title">
        <Icon name="home" size={18} /> Low Stock by Site
      </h2>
      <ul className="low-by-site-list">
        {sites.map((site) => (
          <li key={site.siteId}>
            <Link
              to={`/display?siteId=${encodeURIComponent(site.siteId)}`}
              className={`low-by-site-chip ${site.count > 0 ? 'low-by-site-chip-low' : ''}`}
              aria-label={`${site.siteName}: ${site.count} low${site.out ? `, ${site.out} out of stock` : ''}. Open its wall display`}
              data-testid="low-by-site"
            >
              <span className="low-by-site-name">{site.siteName}</span>
              <strong>{formatCount(site.count)}</strong>
              <span className="low-by-site-label">low</span>
              {site.out > 0 ? <span className="badge badge-danger">{formatCount(site.out)} out</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
