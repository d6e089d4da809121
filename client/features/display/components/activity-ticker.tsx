// The recent-activity ticker along the bottom: the latest entries scrolling past, newest
// first, each saying what changed and who did it ("-5 (sale) Milk, by Sam, note: …"). The
// second copy only makes the loop seamless, so screen readers skip it.
import type { ActivityEntry } from '../../../../shared/inventory';
import { ChangeSentence } from '../../../components/change-sentence';

const time = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: false });

function Entries({ entries }: { entries: ActivityEntry[] }) {
  return (
    <>
      {entries.map((entry) => (
        <span key={entry.id} className={`ticker-entry ticker-${entry.action}`}>
          <span className="ticker-time">{time.format(new Date(entry.timestamp))}</span>
          <span className="ticker-details">
            <ChangeSentence entry={entry} />
          </span>
        </span>
      ))}
    </>
  );
}

export function ActivityTicker({ entries }: { entries: ActivityEntry[] }) {
  // About 6 seconds per entry keeps each one on screen long enough to read.
  const seconds = Math.max(20, entries.length * 6);
  return (
    <section className="display-ticker" aria-label="Recent activity">
      <span className="ticker-label">Latest</span>
      <div className="ticker-window">
        {entries.length === 0 ? (
          <span className="ticker-entry">No recent activity</span>
        ) : (
          <div className="ticker-track" style={{ animationDuration: `${seconds}s` }} data-testid="display-ticker">
            <div className="ticker-copy">
              <Entries entries={entries} />
            </div>
            <div className="ticker-copy" aria-hidden="true">
              <Entries entries={entries} />
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
