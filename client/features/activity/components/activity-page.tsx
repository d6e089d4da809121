// Activity Log (/activity): server-side search, the action filter (All Activities, Created,
// Updated, Deleted), the site and location filter (?siteId=&locationId= open it filtered),
// Reset, sortable Timestamp/User/Action, more pages as you scroll, new entries arriving live
// on top, 'No activity logs found', and Export CSV (with the same filters). Managers and
// holders of Revert changes revert an item's or category's change from here.
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useMachine } from '@xstate/react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { RevertDialog } from '../../../components/revert-dialog';
import { CsvExportButton } from '../../../components/csv-export-button';
import { useCan } from '../../../lib/session-context';
import { toast } from '../../../lib/toasts';
import { activityLogMachine } from '../activity-log.machine';
import { activityApi, DEFAULT_ACTIVITY_PARAMS, placeFromSearch, type ActivityParams } from '../api';
import { PlaceSelects, usePlaceList } from '../../../components/place-selects';
import { downloadCsv, type AuthorizedFetch } from '../csv-export';
import { ActivityTable } from './activity-table';
import '../activity.css';
import { SearchField } from '../../../components/search-field';

export function ActivityPage({ fetchWithToken }: { fetchWithToken: AuthorizedFetch }) {
  const [search] = useSearchParams();
  const [state, send] = useMachine(activityLogMachine, { input: { params: { place: placeFromSearch(search) } } });
  const places = usePlaceList();
  const { params, entries, nextCursor, error, moreError, fresh, newActivity } = state.context;
  const [reverting, setReverting] = useState<string | null>(null);
  const canRevert = useCan('changes:revert');
  const sentinel = useRef<HTMLDivElement>(null);
  const loadingFirst = state.matches('loading') || state.matches('typing');
  const loadingMore = state.matches({ ready: { paging: 'loadingMore' } });
  const filtered =
    params.q !== DEFAULT_ACTIVITY_PARAMS.q ||
    params.action !== DEFAULT_ACTIVITY_PARAMS.action ||
    Boolean(params.place.siteId || params.place.locationId);

  // Infinite scroll: the next page loads when the end of the list comes into view.
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !nextCursor) return;
    const observer = new IntersectionObserver((seen) => {
      if (seen.some((e) => e.isIntersecting)) send({ type: 'LOAD_MORE' });
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [nextCursor, send]);

  return (
    <div className="page activity-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Activity Log</h1>
          <p className="page-subtitle">Every change to items and categories, by whom and when</p>
        </div>
        <div className="page-actions">
          <CsvExportButton
            label="Export CSV"
            onExport={(format) => downloadCsv(fetchWithToken, activityApi.csvPath(params), format)}
            onDone={() => toast.success('Activity log exported')}
          />
        </div>
      </header>

      <div className="toolbar activity-toolbar">
        <SearchField
          placeholder="Search activity..."
          label="Search activity"
          value={params.q}
          onChange={(value) => send({ type: 'TYPE', q: value })}
        />
        <select
          className="input activity-filter"
          aria-label="Filter by action"
          value={params.action}
          onChange={(e) => send({ type: 'SET_ACTION', action: e.target.value as ActivityParams['action'] })}
        >
          <option value="all">All Activities</option>
          <option value="create">Created</option>
          <option value="update">Updated</option>
          <option value="delete">Deleted</option>
        </select>
        <PlaceSelects
          list={places}
          value={params.place}
          onChange={(place) => send({ type: 'SET_PLACE', place })}
          purpose="Filter by"
          className="input activity-filter"
        />
        <button type="button" className="btn btn-secondary" onClick={() => send({ type: 'RESET' })}>
          Reset
        </button>
      </div>

      {newActivity ? (
        <div className="activity-notice" role="status">
          <Icon name="info" size={16} /> New activity arrived.
          <button type="button" className="link-button" onClick={() => send({ type: 'REFRESH' })}>
            Show it
          </button>
        </div>
      ) : null}

      {state.matches('error') ? (
        <ErrorBox
          title="Failed to load activity logs"
          message={error ?? 'Failed to load activity logs'}
          onRetry={() => send({ type: 'RETRY' })}
        />
      ) : null}
      {loadingFirst && entries.length === 0 ? <TruckLoader label="Loading activity..." fullScreen={false} /> : null}
      {state.matches('ready') && entries.length === 0 ? (
        <EmptyState
          icon="list"
          title="No activity logs found"
          text={
            filtered
              ? 'Try another search or filter, or press Reset.'
              : 'Changes to items and categories will show up here.'
          }
        />
      ) : null}
      {entries.length > 0 ? (
        <div
          className={loadingFirst ? 'activity-results activity-results-busy' : 'activity-results'}
          aria-busy={loadingFirst}
        >
          <ActivityTable
            entries={entries}
            params={params}
            fresh={fresh}
            onSort={(column) => send({ type: 'SORT', column })}
            onRevert={canRevert ? (entry) => setReverting(entry.eventId ?? null) : undefined}
          />
          <div ref={sentinel} className="activity-more">
            {moreError ? <ErrorBox message={moreError} onRetry={() => send({ type: 'LOAD_MORE' })} /> : null}
            {nextCursor && !moreError ? (
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => send({ type: 'LOAD_MORE' })}
                disabled={loadingMore}
              >
                {loadingMore ? 'Loading...' : 'Load more'}
              </button>
            ) : null}
            {!nextCursor ? (
              <p className="muted">
                {entries.length === 1 ? '1 entry' : `${entries.length} entries`} · that is everything
              </p>
            ) : null}
          </div>
        </div>
      ) : null}
      {reverting ? (
        <RevertDialog
          eventId={reverting}
          onClose={() => setReverting(null)}
          onDone={() => send({ type: 'REVERTED', eventId: reverting })}
        />
      ) : null}
    </div>
  );
}
