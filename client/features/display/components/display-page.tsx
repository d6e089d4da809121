// The wall display (/display): full screen, no dock, readable across a room. Store name,
// clock and connection state on top; live low-stock alerts and stock by category; a ticker
// of the latest activity. It keeps itself current (display.machine.ts) for days on end.
// Nobody scrolls a wall: the page is exactly the screen, type is sized from the screen, and
// lists longer than their panel turn pages on one shared clock (?rotate=<seconds>). A wall
// can show one place (?siteId= or ?locationId=, chosen in its header): the alerts there and
// the stock by category there, with the units there.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { DEFAULT_MONEY } from '../../../../shared/money-format';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useFeedStatus } from '../../../lib/realtime';
import { placeDisplayMachine } from '../display.machine';
import { placeOfSearch, placeValue, type DisplayPlaceQuery } from '../display-place';
import { PlacePicker } from './place-picker';
import { rotationMs } from '../rotation';
import { useRotationTick } from '../use-rotation-tick';
import { ActivityTicker } from './activity-ticker';
import { ConnectionBadge } from './connection-badge';
import { DisplayAlerts } from './display-alerts';
import { DisplayCategories } from './display-categories';
import { DisplayClock } from './display-clock';
import '../display.css';

export function DisplayPage() {
  const { search } = useLocation();
  const place = useMemo(() => placeOfSearch(search), [search]);
  // Another place is another display: its own machine, from a fresh snapshot.
  return <PlaceDisplay key={placeValue(place)} place={place} search={search} />;
}

function PlaceDisplay({ place, search }: { place: DisplayPlaceQuery; search: string }) {
  const display = useActorRef(useMemo(() => placeDisplayMachine(place), [place]));
  const snapshot = useSelector(display, (s) => s.context.snapshot);
  const failing = useSelector(display, (s) => s.matches('waiting'));
  const status = useFeedStatus();
  const everyMs = useMemo(() => rotationMs(search), [search]);
  const tick = useRotationTick(everyMs);
  const shown = snapshot?.place;

  return (
    <main className="display" id="main">
      <header className="display-header">
        <div className="display-store">
          <div className="display-brand-row">
            <span className="display-brand">
              <span className="brand-mark">
                <Icon name="box" />
              </span>
              Stockroom
            </span>
            <PlacePicker place={place} />
          </div>
          <h1 className="display-store-name" data-testid="display-store-name">
            {snapshot?.storeName ?? ' '}
          </h1>
          {shown ? (
            <p className="display-place-name" data-testid="display-place-name">
              {shown.kind === 'location' ? `${shown.siteName} · ${shown.name}` : shown.name}
            </p>
          ) : null}
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
            <DisplayAlerts alerts={snapshot.alerts} total={snapshot.alertCount} tick={tick} everyMs={everyMs} />
            <DisplayCategories
              categories={snapshot.categories}
              money={snapshot.money ?? DEFAULT_MONEY}
              tick={tick}
              everyMs={everyMs}
            />
          </div>
          <ActivityTicker entries={snapshot.recentActivity} />
        </>
      ) : (
        <TruckLoader label="Loading the display..." />
      )}
    </main>
  );
}
