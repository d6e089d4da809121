// Shows whether the live feed is connected: changes by others appear on screen only then.
import { useFeedStatus } from '../../lib/realtime';

const LABELS = { live: 'Live', connecting: 'Reconnecting…', offline: 'Offline', stopped: 'Disconnected' } as const;
const TITLES = {
  live: 'Connected: changes by your team appear instantly',
  connecting: 'Reconnecting to live updates; missed changes will be caught up',
  offline: 'Offline: no network connection; live updates resume and missed changes are caught up when it returns',
  stopped: 'Live updates stopped; reload the page to reconnect',
} as const;

export function LiveIndicator() {
  const status = useFeedStatus();
  return (
    <span className={`live-indicator live-${status}`} title={TITLES[status]} role="status" aria-label={`Live updates: ${LABELS[status]}`}>
      <span className="live-dot" aria-hidden="true" />
      <span className="live-label">{LABELS[status]}</span>
    </span>
  );
}
