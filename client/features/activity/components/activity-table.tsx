// The log as a table: Timestamp, User and Action sort on click (aria-sort says how), Details
// does not. On a phone each row becomes a small card. An entry that was reverted says so;
// with `onRevert` (managers, Revert changes) each other entry of an item's or category's
// change, or of a transfer's step, has Revert (a site's, location's or stocktake's is not
// reverted from the log).
// Details say what changed ("-5 (sale) Milk, by Sam, note: …"; a revert: "Reverted -5 (sale)
// Milk, by Mona, why: …"), worded by the server, its numbers and names emphasised here.
import type { ActivityEntry } from '../../../../shared/inventory';
import { UNDOABLE_TRANSFER_STEPS } from '../../../../shared/transfers';
import { ChangeSentence } from '../../../components/change-sentence';
import { Icon } from '../../../components/icons';
import { formatDateTime } from '../../../lib/format';
import type { ActivityParams, ActivitySort } from '../api';

const ACTION_LABELS = { create: 'Created', update: 'Updated', delete: 'Deleted' } as const;

/**
 * Whether Revert applies: a change of an item or a category, or a transfer's step (a shipment,
 * a receipt, a write-off: its undo); the server answers 422 for the others.
 */
export const revertable = (entry: ActivityEntry) =>
  Boolean(entry.eventId) &&
  (entry.resourceType === 'inventory' ||
    entry.resourceType === 'category' ||
    (entry.resourceType === 'transfer' && UNDOABLE_TRANSFER_STEPS.some((type) => type === entry.eventType)));

function SortHeader({
  column,
  label,
  params,
  onSort,
}: {
  column: ActivitySort;
  label: string;
  params: ActivityParams;
  onSort: (c: ActivitySort) => void;
}) {
  const active = params.sort === column;
  const sort = active ? (params.order === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={sort}>
      <button
        type="button"
        className={`sort-header ${active ? 'sort-header-active' : ''}`}
        onClick={() => onSort(column)}
      >
        {label}
        <Icon
          name={active && params.order === 'asc' ? 'chevron-up' : 'chevron-down'}
          size={14}
          className={active ? undefined : 'sort-header-idle'}
        />
      </button>
    </th>
  );
}

export function ActivityTable({
  entries,
  params,
  fresh,
  onSort,
  onRevert,
}: {
  entries: ActivityEntry[];
  params: ActivityParams;
  fresh: string[];
  onSort: (c: ActivitySort) => void;
  onRevert?: (entry: ActivityEntry) => void;
}) {
  const isFresh = new Set(fresh);
  return (
    <div className="activity-table-wrap card">
      <table className="activity-table">
        <caption className="visually-hidden">Activity log, {entries.length} entries shown</caption>
        <thead>
          <tr>
            <SortHeader column="timestamp" label="Timestamp" params={params} onSort={onSort} />
            <SortHeader column="user" label="User" params={params} onSort={onSort} />
            <SortHeader column="action" label="Action" params={params} onSort={onSort} />
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr
              key={entry.id}
              className={isFresh.has(entry.id) ? 'activity-fresh' : undefined}
              data-testid="activity-row"
            >
              <td data-label="Timestamp" className="activity-time">
                <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time>
              </td>
              <td data-label="User">{entry.userName}</td>
              <td data-label="Action">
                <span className={`badge action-badge action-${entry.action}`}>{ACTION_LABELS[entry.action]}</span>
              </td>
              <td data-label="Details" className="activity-details">
                <span className="activity-details-row">
                  <span className="activity-details-text">
                    <ChangeSentence entry={entry} />
                  </span>
                  {entry.reverted ? (
                    <span className="badge activity-reverted" data-testid="activity-reverted">
                      Reverted
                    </span>
                  ) : onRevert && revertable(entry) ? (
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm activity-revert"
                      aria-label={`Revert: ${entry.details}`}
                      onClick={() => onRevert(entry)}
                    >
                      Revert
                    </button>
                  ) : null}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
