// /stocktake/:id: count by list and search, by hardware scanner (a scan jumps to the item's
// count field) or by camera (the scan button client/app provides); progress, items counted
// twice, and for those who run stocktakes the review (variance with totals, the approvals).
// Those who run stocktakes get the review first and the count rows after it: the review is
// what they came to decide on (below 48 count rows it sat 6,600 px down). Staff who count
// blind get their count rows first. A session of several locations (a site, or a room with
// shelves) has "Counting at": the counter picks where they stand, and their counts go there.
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { Link, useParams } from 'react-router-dom';
import { lineKey, type StocktakeLine } from '../../../../shared/stocktake';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { newWriteId } from '../../../lib/live-query.machine';
import { formatDateTime } from '../../../lib/format';
import { useCan } from '../../../lib/session-context';
import { toast } from '../../../lib/toasts';
import { useOutbox } from '../../../offline/use-outbox';
import { countRows, scannedKey } from '../count-rows';
import { findLine } from '../find-line';
import { sessionMachine, type SessionWrite } from '../session.machine';
import { countsPath } from '../submit-count';
import { useCountWedge } from '../use-count-wedge';
import { ConflictsSection } from './conflicts-section';
import { CountRow } from './count-row';
import { ProgressBar } from './progress-bar';
import { VarianceTable } from './variance-table';
import '../stocktake.css';

/** A camera scan button, given by client/app (the scanner feature): it reports the code read. */
export type ScanButton = ComponentType<{ onCode: (code: string) => void }>;

/**
 * Counts of this session still in the outbox, per line (lineKey), oldest first. A count that
 * names no location (kept by an older page) is at the session's first location.
 */
function useWaitingCounts(sessionId: string, home: string | undefined): Map<string, number[]> {
  const { waiting } = useOutbox();
  return useMemo(() => {
    const byLine = new Map<string, number[]>();
    for (const entry of waiting) {
      if (entry.path !== countsPath(sessionId)) continue;
      const body = entry.body as { itemId: string; locationId?: string; counted: number };
      const key = lineKey({ itemId: body.itemId, locationId: body.locationId ?? home ?? '' });
      byLine.set(key, [...(byLine.get(key) ?? []), body.counted]);
    }
    return byLine;
  }, [waiting, sessionId, home]);
}

export function StocktakeSessionPage({ ScanButton }: { ScanButton?: ScanButton }) {
  const { id = '' } = useParams();
  const session = useActorRef(sessionMachine, { input: { params: { id } } });
  const data = useSelector(session, (s) => s.context.data);
  const failed = useSelector(session, (s) => s.matches('error'));
  const notFound = useSelector(session, (s) => s.matches('notFound'));
  const error = useSelector(session, (s) => s.context.error);
  const writes = useSelector(session, (s) => s.context.writes);
  const canRun = useCan('stocktake:run');
  // Someone who runs counts without counting (a role may have one and not the other) sees the session, with no count fields.
  const canCount = useCan('stock:update');
  const waiting = useWaitingCounts(id, data?.locations[0]?.id);
  const [query, setQuery] = useState('');
  // Where the counter stands, in a session of several locations; null: every location's lines.
  const [countingAt, setCountingAt] = useState<string | null>(null);
  // The line a scan found (lineKey); `seq` makes a second scan of the same item focus its field again.
  const [found, setFound] = useState<{ key: string; itemId: string; seq: number } | null>(null);
  // Items scanned at the chosen location though they had no line there: they get one.
  const [scannedHere, setScannedHere] = useState<ReadonlySet<string>>(new Set());
  const highlighted = found?.key ?? null;
  const place = data?.locations.find((l) => l.id === countingAt) ?? null;
  const [confirmAll, setConfirmAll] = useState(false);
  const inputs = useRef(new Map<string, HTMLInputElement>());

  const write = (w: SessionWrite) => session.send({ type: 'WRITE', id: newWriteId(), write: w });
  const pending = Object.values(writes).filter((w) => w.status === 'pending');
  const savingLines = new Set(pending.flatMap((w) => (w.write.kind === 'count' ? [lineKey(w.write)] : [])));
  const approvingLines = new Set(pending.flatMap((w) => (w.write.kind === 'approve-line' ? [lineKey(w.write)] : [])));
  const approvingAll = pending.some((w) => w.write.kind === 'approve-all');

  // A scan (camera or hardware) shows that item alone and puts the cursor in its count field.
  const onCode = useCallback(
    (code: string) => {
      const here = place && data ? data.lines.filter((l) => l.locationId === place.id) : [];
      const line = data ? (findLine(here, code) ?? findLine(data.lines, code)) : null;
      if (!line) {
        toast.error(`No item in this count has the code ${code}`);
        return;
      }
      setQuery('');
      if (place) setScannedHere((items) => new Set(items).add(line.itemId));
      setFound((previous) => ({ key: scannedKey(line, place), itemId: line.itemId, seq: (previous?.seq ?? 0) + 1 }));
    },
    [data, place],
  );
  const onSearchKeyDown = useCountWedge(onCode);
  useEffect(() => {
    if (!found) return;
    const input = inputs.current.get(found.key);
    input?.focus();
    input?.scrollIntoView({ block: 'center' });
  }, [found]);

  if (notFound) return <EmptyState icon="search" title="Count not found" text="This stocktake does not exist." />;
  if (failed)
    return (
      <ErrorBox
        title="Failed to load the stocktake"
        message={error ?? ''}
        onRetry={() => session.send({ type: 'RETRY' })}
      />
    );
  if (!data) return <TruckLoader label="Loading the count..." fullScreen={false} />;

  const open = data.status === 'open';
  const several = data.locations.length > 1;
  const lines = countRows(data.lines, query, place, scannedHere);
  const conflicts = data.lines.filter((l) => l.status === 'conflict');
  const waitingTotal = [...waiting.values()].reduce((n, list) => n + list.length, 0);
  const approvable = data.lines.filter((l) => l.status === 'counted').length;

  return (
    <div className="page stocktake-page">
      <Link to="/stocktake" className="btn btn-ghost back-link">
        <Icon name="arrow-left" size={16} /> All counts
      </Link>
      <header className="page-header">
        <div>
          <h1 className="page-title">{data.name}</h1>
          <p className="page-subtitle">
            <span className="stocktake-place" data-testid="stocktake-place">
              <Icon name="home" size={14} /> {data.placeName}
            </span>{' '}
            · Started {formatDateTime(data.startedAt)} by {data.startedBy} ·{' '}
            {open ? 'Open' : `Closed ${formatDateTime(data.closedAt)}`}
          </p>
        </div>
        {canRun && open ? (
          <div className="page-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={approvingAll || conflicts.length > 0}
              title={conflicts.length > 0 ? 'Keep one count of each item counted twice first' : undefined}
              onClick={() => setConfirmAll(true)}
            >
              <Icon name="check" size={18} /> Approve all
            </button>
          </div>
        ) : null}
      </header>

      <section className="card stocktake-summary" aria-label="Progress">
        <ProgressBar counted={data.counted} toCount={data.toCount} />
        <span className="stocktake-session-badges">
          {data.conflicts > 0 ? <span className="badge badge-danger">{data.conflicts} counted twice</span> : null}
          {data.approved > 0 ? <span className="badge badge-success">{data.approved} approved</span> : null}
          {waitingTotal > 0 ? (
            <span className="badge stocktake-badge-waiting" data-testid="counts-waiting">
              <Icon name="wifi-off" size={14} /> {waitingTotal} {waitingTotal === 1 ? 'count' : 'counts'} waiting to
              send
            </span>
          ) : null}
        </span>
      </section>

      <ConflictsSection
        lines={conflicts}
        canApprove={canRun && open}
        showPlace={several}
        onKeep={(line, countId) =>
          write({ kind: 'approve-line', itemId: line.itemId, locationId: line.locationId, name: line.name, countId })
        }
      />

      {data.showsVariance ? (
        <VarianceTable
          lines={data.lines}
          totals={data.totals}
          open={open}
          busy={approvingLines}
          showPlace={several}
          onApprove={(line: StocktakeLine) =>
            write({ kind: 'approve-line', itemId: line.itemId, locationId: line.locationId, name: line.name })
          }
        />
      ) : null}

      <section className="stocktake-count-section" aria-labelledby="stocktake-count-title">
        <h2 id="stocktake-count-title" className="section-title">
          Items to count
        </h2>
        <div className="stocktake-toolbar">
          {several ? (
            <label className="stocktake-counting-at">
              <span className="field-label">Counting at</span>
              <select
                className="input"
                value={countingAt ?? ''}
                onChange={(e) => {
                  setCountingAt(e.target.value || null);
                  setScannedHere(new Set());
                  setFound(null);
                }}
              >
                <option value="">All locations</option>
                {data.locations.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <div className="search-field">
            <Icon name="search" size={18} className="search-field-icon" />
            <input
              type="search"
              className="input"
              placeholder="Search or scan an item..."
              aria-label="Search the items to count by name, SKU or barcode"
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setFound(null);
              }}
              onKeyDown={onSearchKeyDown}
            />
          </div>
          {ScanButton && open ? <ScanButton onCode={onCode} /> : null}
        </div>
        {lines.length === 0 ? (
          <p className="stocktake-muted">
            {query
              ? `No item of this count matches “${query}”.`
              : `Nothing is expected at ${place?.name ?? 'this place'}: scan or search an item found there.`}
          </p>
        ) : null}
        <ul className="stocktake-count-list">
          {lines.map((line) => {
            const key = lineKey(line);
            return (
              <CountRow
                key={key}
                ref={(el) => {
                  if (el) inputs.current.set(key, el);
                  else inputs.current.delete(key);
                }}
                line={line}
                showPlace={several && !place}
                waiting={waiting.get(key) ?? []}
                saving={savingLines.has(key)}
                highlighted={highlighted === key}
                open={open && canCount}
                onCount={(counted) =>
                  write({ kind: 'count', itemId: line.itemId, locationId: line.locationId, name: line.name, counted })
                }
              />
            );
          })}
        </ul>
      </section>

      {confirmAll ? (
        <ConfirmDialog
          title="Approve this count?"
          message={
            approvable === 0
              ? 'Nothing is left to approve: the count closes. Items not counted keep their stock.'
              : `${approvable} counted ${approvable === 1 ? 'item is' : 'items are'} adjusted by their differences and the count closes. Items not counted keep their stock.`
          }
          confirmLabel="Approve all"
          onConfirm={() => {
            setConfirmAll(false);
            write({ kind: 'approve-all' });
          }}
          onCancel={() => setConfirmAll(false)}
        />
      ) : null}
    </div>
  );
}
