// Low-stock alerts for the wall: out of stock first, then the newest; big enough to read
// across a room. As many rows as the panel holds are on view at once; the rest come round
// page by page (every row stays in the page, hidden until its turn). On a wall of the whole
// store with several sites, each row says which site is low.
import type { DisplayAlert } from '../../../../shared/dashboard';
import { Icon } from '../../../components/icons';
import { useFittedPages } from '../use-fitted-pages';
import { PageIndicator } from './page-indicator';

export function DisplayAlerts({
  alerts,
  total,
  tick,
  everyMs,
}: {
  alerts: DisplayAlert[];
  total: number;
  tick: number;
  everyMs: number;
}) {
  const { listRef, page, pages, onPage } = useFittedPages(alerts.length, tick);
  return (
    <section className="display-panel display-alerts" aria-labelledby="display-alerts-title">
      <header className="display-panel-header">
        <h2 id="display-alerts-title">
          <Icon name="alert" /> Low stock
        </h2>
        <span className={`display-count ${total > 0 ? 'display-count-danger' : ''}`} data-testid="display-alert-count">
          {total}
        </span>
      </header>
      {alerts.length === 0 ? (
        <div className="display-all-good">
          <Icon name="check-circle" />
          <p>All stocked up</p>
        </div>
      ) : (
        <ul className="display-list display-alert-list" ref={listRef} data-testid="display-alert-list">
          {alerts.map((alert, index) => {
            const out = alert.quantity <= 0;
            return (
              <li
                key={`${alert.itemId}@${alert.siteId ?? ''}`}
                className={`display-alert ${out ? 'display-alert-out' : ''}`}
                data-testid="display-alert"
                hidden={!onPage(index)}
              >
                <span className="display-alert-name">{alert.name}</span>
                <span className="display-alert-category">
                  {[alert.siteName, alert.category].filter(Boolean).join(' · ')}
                </span>
                <span className="display-alert-stock">
                  {out ? (
                    'OUT OF STOCK'
                  ) : (
                    <>
                      <strong>{alert.quantity}</strong> left · alert at {alert.threshold}
                    </>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <footer className="display-panel-footer">
        <PageIndicator page={page} pages={pages} everyMs={everyMs} testId="display-alert-pages" />
        {/* The server sends a few hundred at most; a count beyond that says how many more. */}
        {total > alerts.length ? <span className="display-more">+{total - alerts.length} more not shown</span> : null}
      </footer>
    </section>
  );
}
