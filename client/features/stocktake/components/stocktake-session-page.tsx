// /stocktake/:id: count by list and search, by hardware scanner (a scan jumps to the item's
// count field) or by camera (the scan button client/app provides); progress, items counted
// twice, and for those who run stocktakes the review (variance with totals, the approvals).
// Those who run stocktakes get the review first and the count rows after it: the review is
// what they came to decide on (below 48 count rows it sat 6,600 px down). Staff who count
// blind get their count rows first.
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { StocktakeLine } from '../../../../shared/stocktake';
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
import { filterLines, findLine } from '../find-line';
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

/** Counts of this session still in the outbox, per item, oldest first. */
function useWaitingCounts(sessionId: string): Map<string, number[]> {
  const { waiting } = useOutbox();
  return useMemo(() => {
    const byItem = new Map<string, number[]>();
    for (const entry of waiting) {
      if (entry.path !== countsPath(sessionId)) continue;
      const body = entry.body as { itemId: string; counted: number };
      byItem.set(body.itemId, [...(byItem.get(body.itemId) ?? []), body.counted]);
    }
    return byItem;
  }, [waiting, sessionId]);
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
  const waiting = useWaitingCounts(id);
  const [query, setQuery] = useState('');
  // The item a scan found; `seq` makes a second scan of the same item focus its field again.
  const [found, setFound] = useState<{ itemId: string; seq: number } | null>(null);
  const highlighted = found?.itemId ?? null;
  const [confirmAll, setConfirmAll] = useState(false);
  const inputs = useRef(new Map<string, HTMLInputElement>());

  const write = (w: SessionWrite) => session.send({ type: 'WRITE', id: newWriteId(), write: w });
  const pending = Object.values(writes).filter((w) => w.status === 'pending');
  const savingItems = new Set(pending.flatMap((w) => (w.write.kind === 'count' ? [w.write.itemId] : [])));
  const approvingItems = new Set(pending.flatMap((w) => (w.write.kind === 'approve-line' ? [w.write.itemId] : [])));
  const approvingAll = pending.some((w) => w.write.kind === 'approve-all');

  // A scan (camera or hardware) shows that item alone and puts the cursor in its count field.
  const onCode = useCallback(
    (code: string) => {
      const line = data ? findLine(data.lines, code) : null;
      if (!line) {
        toast.error(`No item in this count has the code ${code}`);
        return;
      }
      setQuery('');
      setFound((previous) => ({ itemId: line.itemId, seq: (previous?.seq ?? 0) + 1 }));
    },
    [data],
  );
  const onSearchKeyDown = useCountWedge(onCode);
  useEffect(() => {
    if (!found) return;
    const input = inputs.current.get(found.itemId);
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
  const lines = filterLines(data.lines, query);
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
            Started {formatDateTime(data.startedAt)} by {data.startedBy} ·{' '}
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
        onKeep={(line, countId) => write({ kind: 'approve-line', itemId: line.itemId, name: line.name, countId })}
      />

      {data.showsVariance ? (
        <VarianceTable
          lines={data.lines}
          totals={data.totals}
          open={open}
          busy={approvingItems}
          onApprove={(line: StocktakeLine) => write({ kind: 'approve-line', itemId: line.itemId, name: line.name })}
        />
      ) : null}

      <section className="stocktake-count-section" aria-labelledby="stocktake-count-title">
        <h2 id="stocktake-count-title" className="section-title">
          Items to count
        </h2>
        <div className="stocktake-toolbar">
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
        {lines.length === 0 ? <p className="stocktake-muted">No item of this count matches “{query}”.</p> : null}
        <ul className="stocktake-count-list">
          {lines.map((line) => (
            <CountRow
              key={line.itemId}
              ref={(el) => {
                if (el) inputs.current.set(line.itemId, el);
                else inputs.current.delete(line.itemId);
              }}
              line={line}
              waiting={waiting.get(line.itemId) ?? []}
              saving={savingItems.has(line.itemId)}
              highlighted={highlighted === line.itemId}
              open={open && canCount}
              onCount={(counted) => write({ kind: 'count', itemId: line.itemId, name: line.name, counted })}
            />
          ))}
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
