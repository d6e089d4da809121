// Recent Activity: the latest 5 log entries, each saying what changed and who did it
// ("-5 (sale) Milk, by Sam, note: …"), and when; the dot's colour says the action (create,
// update, delete).
import { Link } from 'react-router-dom';
import type { ActivityEntry } from '../../../../shared/inventory';
import { ChangeSentence } from '../../../components/change-sentence';
import { Icon } from '../../../components/icons';
import { formatDateTime } from '../../../lib/format';

const ACTION_WORDS = { create: 'Created', update: 'Updated', delete: 'Deleted' } as const;

export function RecentActivityCard({ entries }: { entries: ActivityEntry[] }) {
  return (
    <section className="card dash-card recent-activity-card" aria-labelledby="recent-activity-title">
      <header className="dash-card-header">
        <h2 id="recent-activity-title" className="card-title">
          <Icon name="history" size={18} /> Recent Activity
        </h2>
        <Link to="/activity" className="dash-card-link">
          View all <Icon name="chevron-right" size={14} />
        </Link>
      </header>
      {entries.length === 0 ? (
        <p className="dash-empty">No recent activity</p>
      ) : (
        <ul className="activity-feed">
          {entries.map((entry) => (
            <li key={entry.id} className="activity-feed-row">
              <span
                className={`activity-dot activity-dot-${entry.action}`}
                role="img"
                aria-label={ACTION_WORDS[entry.action]}
              />
              <span className="activity-feed-text">
                <span className="activity-feed-details">
                  <ChangeSentence entry={entry} />
                </span>
                <span className="activity-feed-meta">{formatDateTime(entry.timestamp)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
