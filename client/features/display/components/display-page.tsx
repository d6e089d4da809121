// The wall display (/display): full screen, no dock, readable across a room. Store name,
// clock and connection state on top; live low-stock alerts and stock by category; a ticker
// of the latest activity. It keeps itself current (display.machine.ts) for days on end.
import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useFeedStatus } from '../../../lib/realtime';
import { displayMachine } from '../display.machine';
import { ActivityTicker } from './activity-ticker';
import { ConnectionBadge } from './connection-badge';
import { DisplayAlerts } from './display-alerts';
import { DisplayCategories } from './display-categories';
import { DisplayClock } from './display-clock';
import '../display.css';

export function DisplayPage() {
  const display = useActorRef(displayMachine);
  const snapshot = useSelector(display, (s) => s.context.snapshot);
  const failing = useSelector(display, (s) => s.matches('waiting'));
  const status = useFeedStatus();

  return (
    <main className="display" id="main">
      <header className="display-header">
        <div className="display-store">
          <span className="display-brand">
            <span className="brand-mark">
              <Icon name="box" size={22} />
            </span>
            Stockroom
          </span>
          <h1 className="display-store-name" data-testid="display-store-name">
            {snapshot?.storeName ?? ' '}
          </h1>
        </div>
        <div className="display-header-side">
          <ConnectionBadge status={status} failing={failing} />
          <DisplayClock />
          <Link to="/dashboard" className="display-exit">
            Exit
          </Link>
        </div>
      </header>
      {snapshot ? (
        <>
          <div className="display-body">
            <DisplayAlerts alerts={snapshot.alerts} total={snapshot.alertCount} />
            <DisplayCategories categories={snapshot.categories} />
          </div>
          <ActivityTicker entries={snapshot.recentActivity} />
        </>
      ) : (
        <TruckLoader label="Loading the display..." />
      )}
    </main>
  );
}
