// /stocktake: the count sessions (progress, items counted twice, approved), and for those
// who run stocktakes, "Start a count" (a dialog that asks what to count).
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { StocktakeSummary } from '../../../../shared/stocktake';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { formatDateTime } from '../../../lib/format';
import { useCan } from '../../../lib/session-context';
import { stocktakeListMachine } from '../list.machine';
import { ProgressBar } from './progress-bar';
import { StartCountDialog } from './start-count-dialog';
import '../stocktake.css';

function SessionRow({ session }: { session: StocktakeSummary }) {
  return (
    <li className="stocktake-session-row">
      <Link to={`/stocktake/${encodeURIComponent(session.id)}`} className="stocktake-session-link">
        <span className="stocktake-session-name">{session.name}</span>
        <span className="stocktake-muted">
          {session.placeName} · Started {formatDateTime(session.startedAt)} by {session.startedBy}
        </span>
      </Link>
      <ProgressBar counted={session.counted} toCount={session.toCount} />
      <span className="stocktake-session-badges">
        {session.conflicts > 0 ? <span className="badge badge-danger">{session.conflicts} counted twice</span> : null}
        {session.approved > 0 ? <span className="badge badge-success">{session.approved} approved</span> : null}
        <span className={`badge ${session.status === 'open' ? 'badge-success' : 'badge-neutral'}`}>
          {session.status === 'open' ? 'Open' : 'Closed'}
        </span>
      </span>
    </li>
  );
}

export function StocktakeListPage() {
  const list = useActorRef(stocktakeListMachine, { input: { params: {} } });
  const data = useSelector(list, (s) => s.context.data);
  const failed = useSelector(list, (s) => s.matches('error'));
  const error = useSelector(list, (s) => s.context.error);
  const canRun = useCan('stocktake:run');
  const [choosing, setChoosing] = useState(false);

  return (
    <div className="page stocktake-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Stocktake</h1>
          <p className="page-subtitle">Count shelves on several phones at once, with or without signal.</p>
        </div>
        {canRun ? (
          <div className="page-actions">
            <button type="button" className="btn btn-primary" onClick={() => setChoosing(true)}>
              <Icon name="plus" size={18} /> Start a count
            </button>
          </div>
        ) : null}
      </header>
      {choosing ? <StartCountDialog onClose={() => setChoosing(false)} /> : null}
      {failed ? (
        <ErrorBox
          title="Failed to load stocktakes"
          message={error ?? ''}
          onRetry={() => list.send({ type: 'RETRY' })}
        />
      ) : null}
      {!data && !failed ? <TruckLoader label="Loading stocktakes..." fullScreen={false} /> : null}
      {data && data.stocktakes.length === 0 ? (
        <EmptyState
          icon="list"
          title="No counts yet"
          text={
            canRun ? 'Start a count: staff then count on their phones.' : 'A manager starts a count; it shows here.'
          }
        />
      ) : null}
      {data && data.stocktakes.length > 0 ? (
        <section aria-label="Counts">
          <h2 className="section-title">Counts</h2>
          <ul className="stocktake-session-list">
            {data.stocktakes.map((s) => (
              <SessionRow key={s.id} session={s} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
