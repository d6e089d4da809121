// Low-stock alerts for the wall: out of stock first, then the newest; big enough to read
// across a room, with how many more there are.
import type { DisplayAlert } from '../../../../shared/dashboard';
import { Icon } from '../../../components/icons';

export function DisplayAlerts({ alerts, total }: { alerts: DisplayAlert[]; total: number }) {
  return (
    <section className="display-panel display-alerts" aria-labelledby="display-alerts-title">
      <header className="display-panel-header">
        <h2 id="display-alerts-title">
          <Icon name="alert" size={28} /> Low stock
        </h2>
        <span className={`display-count ${total > 0 ? 'display-count-danger' : ''}`} data-testid="display-alert-count">
          {total}
        </span>
      </header>
      {alerts.length === 0 ? (
        <div className="display-all-good">
          <Icon name="check-circle" size={64} />
          <p>All stocked up</p>
        </div>
      ) : (
        <ul className="display-alert-list">
          {alerts.map((alert) => {
            const out = alert.quantity <= 0;
            return (
              <li key={alert.itemId} className={`display-alert ${out ? 'display-alert-out' : ''}`} data-testid="display-alert">
                <span className="display-alert-name">{alert.name}</span>
                <span className="display-alert-category">{alert.category}</span>
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
      {total > alerts.length ? <p className="display-more">+{total - alerts.length} more low-stock items</p> : null}
    </section>
  );
}
