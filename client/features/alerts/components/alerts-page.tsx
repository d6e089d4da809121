// Alerts (/alerts): the live low-stock list (name, current stock, threshold), search by name
// or category, a real Dismiss per row (until the item recovers and runs low again), the
// dismissed ones to restore, and Alert Settings with the user's notification choices.
import { useCallback, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { alertKey, type LowStockAlert } from '../../../../shared/alerts';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { newWriteId } from '../../../lib/live-query.machine';
import { useSession } from '../../../lib/session-context';
import { filterAlerts } from '../alert-reducers';
import { alertsMachine } from '../alerts.machine';
import { AlertRow } from './alert-row';
import { AlertSettingsModal } from './alert-settings-modal';
import '../alerts.css';
import { SearchField } from '../../../components/search-field';

export function AlertsPage() {
  const { user } = useSession();
  const alerts = useActorRef(alertsMachine, { input: { params: { uid: user.id } } });
  const failed = useSelector(alerts, (s) => s.matches('error'));
  const data = useSelector(alerts, (s) => s.context.data);
  const error = useSelector(alerts, (s) => s.context.error);
  const writes = useSelector(alerts, (s) => s.context.writes);
  const pending = new Set(
    Object.values(writes)
      .filter((w) => w.status === 'pending')
      .map((w) => alertKey(w.write)),
  );
  const [query, setQuery] = useState('');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [showDismissed, setShowDismissed] = useState(false);
  const closeSettings = useCallback(() => setSettingsOpen(false), []);

  const all = data?.alerts ?? [];
  const matching = filterAlerts(all, query);
  const active = matching.filter((a) => !a.dismissed);
  const dismissed = matching.filter((a) => a.dismissed);
  const write = (kind: 'dismiss' | 'restore', alert: LowStockAlert) =>
    alerts.send({
      type: 'WRITE',
      id: newWriteId(),
      write: { kind, itemId: alert.itemId, name: alert.name, siteId: alert.siteId ?? null },
    });
  const activeCount = all.filter((a) => !a.dismissed).length;
  // A store of several sites names the site of each alert; the search finds them by it too.
  const bySite = all.some((a) => a.siteName);

  return (
    <div className="page alerts-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Alerts</h1>
          <p className="page-subtitle">
            {data
              ? `${activeCount} active ${activeCount === 1 ? 'alert' : 'alerts'} · items at or below their threshold`
              : 'Items at or below their threshold'}
          </p>
        </div>
        <div className="page-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setSettingsOpen(true)}>
            <Icon name="settings" size={18} /> Alert Settings
          </button>
        </div>
      </header>

      <SearchField
        placeholder={bySite ? 'Search by item name, category or site...' : 'Search by item name or category...'}
        label={bySite ? 'Search alerts by item name, category or site' : 'Search alerts by item name or category'}
        value={query}
        onChange={(value) => setQuery(value)}
      />

      {failed ? (
        <ErrorBox
          title="Failed to load alerts"
          message={error ?? 'Failed to load alerts'}
          onRetry={() => alerts.send({ type: 'RETRY' })}
        />
      ) : null}
      {!data && !failed ? <TruckLoader label="Loading alerts..." fullScreen={false} /> : null}

      {data && all.length === 0 ? (
        <EmptyState
          icon="check-circle"
          title="No Active Alerts"
          text="All inventory items are above their threshold levels."
        />
      ) : null}
      {data && all.length > 0 && matching.length === 0 ? (
        <EmptyState icon="search" title="No alerts found" text="No alerts match your search." />
      ) : null}
      {data && all.length > 0 && matching.length > 0 && active.length === 0 ? (
        <EmptyState
          icon="check-circle"
          title="No Active Alerts"
          text="You dismissed every current alert. An item alerts again if it recovers and then runs low once more."
        />
      ) : null}

      {active.length > 0 ? (
        <section aria-label="Active alerts">
          <ul className="alert-list">
            {active.map((alert) => (
              <AlertRow
                key={alertKey(alert)}
                alert={alert}
                busy={pending.has(alertKey(alert))}
                onDismiss={() => write('dismiss', alert)}
                onRestore={() => write('restore', alert)}
              />
            ))}
          </ul>
        </section>
      ) : null}

      {dismissed.length > 0 ? (
        <section className="dismissed-section" aria-label="Dismissed alerts">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-expanded={showDismissed}
            onClick={() => setShowDismissed((v) => !v)}
          >
            <Icon name={showDismissed ? 'chevron-up' : 'chevron-down'} size={16} /> Dismissed ({dismissed.length})
          </button>
          {showDismissed ? (
            <ul className="alert-list">
              {dismissed.map((alert) => (
                <AlertRow
                  key={alertKey(alert)}
                  alert={alert}
                  busy={pending.has(alertKey(alert))}
                  onDismiss={() => write('dismiss', alert)}
                  onRestore={() => write('restore', alert)}
                />
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}

      {settingsOpen ? <AlertSettingsModal onClose={closeSettings} /> : null}
    </div>
  );
}
