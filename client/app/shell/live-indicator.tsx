// Shows whether the app is online, in words with an icon: changes by others appear on screen
// only while the live feed is connected. It turns Offline at once when the browser goes
// offline or a request gets no answer (client/lib/realtime.ts), not after the feed's pings.
// With the feed connected, a screen may still show a copy the service worker saved on this
// device (the server took over 3 s to answer a read): the indicator says so until the
// server answers again, so nobody takes an old number for the live one.
import { useSyncExternalStore } from 'react';
import { Icon } from '../../components/icons';
import { onSavedCopyChange, showingSavedCopy } from '../../lib/api-client';
import { useFeedStatus } from '../../lib/realtime';
import type { FeedStatus } from '../../lib/realtime-feed.machine';

export type IndicatorState = FeedStatus | 'saved';

// In words with an icon: a bare coloured dot said nothing to most people.
const LABELS = {
  live: 'Online',
  saved: 'Saved copy',
  connecting: 'Reconnecting…',
  offline: 'Offline',
  stopped: 'Disconnected',
} as const;
const ICONS = { live: 'wifi', saved: 'clock', connecting: 'wifi', offline: 'wifi-off', stopped: 'wifi-off' } as const;
const TITLES = {
  live: 'Online: changes by your team appear instantly',
  saved: 'The server is slow to answer: this screen shows a copy saved on this device, read again every few seconds',
  connecting: 'Reconnecting to live updates; missed changes will be caught up',
  offline: 'Offline: no network connection; live updates resume and missed changes are caught up when it returns',
  stopped: 'Live updates stopped; reload the page to reconnect',
} as const;

/** What the indicator shows: the feed's status, but "Saved copy" while live with a saved copy on screen. */
export function indicatorState(status: FeedStatus, savedCopy: boolean): IndicatorState {
  return status === 'live' && savedCopy ? 'saved' : status;
}

export function LiveIndicator() {
  const savedCopy = useSyncExternalStore(onSavedCopyChange, showingSavedCopy);
  const state = indicatorState(useFeedStatus(), savedCopy);
  return (
    <span
      className={`live-indicator live-${state}`}
      title={TITLES[state]}
      role="status"
      aria-label={`Live updates: ${LABELS[state]}`}
    >
      <Icon name={ICONS[state]} size={15} className="live-icon" />
      <span className="live-label">{LABELS[state]}</span>
    </span>
  );
}
