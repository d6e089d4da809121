// Whether the display is live: the feed's state, plus a failed refresh while it is away.
import type { FeedStatus } from '../../../lib/realtime-feed.machine';

const LABELS: Record<FeedStatus, string> = {
  live: 'Live',
  connecting: 'Reconnecting…',
  offline: 'Offline',
  stopped: 'Disconnected',
};

export function ConnectionBadge({ status, failing }: { status: FeedStatus; failing: boolean }) {
  const shown: FeedStatus = status === 'live' && failing ? 'connecting' : status;
  return (
    <span className={`display-connection display-connection-${shown}`} role="status" data-testid="display-connection">
      <span className="display-connection-dot" aria-hidden="true" />
      {LABELS[shown]}
    </span>
  );
}
