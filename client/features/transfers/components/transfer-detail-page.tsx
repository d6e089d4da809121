// /transfers/:id: one transfer with its lines (shipped, received, written off, in transit),
// and its next steps for those who move stock: a draft is shipped or cancelled, units in
// transit are received at a location of the destination site or written off with a reason.
// Steps made on another screen show here at once; a refused step says why where it was asked.
// A shipment's, receipt's or write-off's toast has Undo (and Ctrl+Z does it while it shows).
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isUnderway, type Transfer } from '../../../../shared/transfers';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useUndoShortcut } from '../../../components/undo';
import { formatDateTime } from '../../../lib/format';
import { newWriteId } from '../../../lib/live-query.machine';
import { useCan } from '../../../lib/session-context';
import type { TransferWrite } from '../api';
import { transferDetailMachine } from '../transfer-detail.machine';
import { ReceiveDialog } from './receive-dialog';
import { plural, TransferRoute, TransferStatusBadge } from './transfer-status';
import { WriteOffDialog } from './write-off-dialog';
import '../transfers.css';

type Dialog = 'none' | 'receive' | 'write-off' | 'cancel';

function Figures({ transfer }: { transfer: Transfer }) {
  const figures = [
    { label: 'Units', value: transfer.units },
    { label: 'In transit', value: transfer.inTransit, tone: transfer.inTransit > 0 ? 'transit' : '' },
    { label: 'Received', value: transfer.received },
    { label: 'Written off', value: transfer.writtenOff, tone: transfer.writtenOff > 0 ? 'loss' : '' },
  ];
  return (
    <dl className="transfer-figures">
      {figures.map((f) => (
        <div key={f.label} className={`transfer-figure card ${f.tone ? `transfer-figure-${f.tone}` : ''}`}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Lines({ transfer }: { transfer: Transfer }) {
  return (
    <section className="card transfer-lines-card" aria-labelledby="transfer-lines-title">
      <h2 id="transfer-lines-title" className="card-title">
        <Icon name="list" size={18} /> {plural(transfer.lineCount, 'line', 'lines')}
      </h2>
      <table className="transfer-lines">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">From</th>
            <th scope="col" className="num">
              Shipped
            </th>
            <th scope="col" className="num">
              Received
            </th>
            <th scope="col" className="num">
              Written off
            </th>
            <th scope="col" className="num">
              In transit
            </th>
          </tr>
        </thead>
        <tbody>
          {transfer.lines.map((line) => (
            <tr key={line.itemId}>
              <th scope="row" data-label="Item">
                <Link to={`/inventory/${encodeURIComponent(line.itemId)}`}>{line.itemName}</Link>
                {line.sku ? <span className="transfer-sku">{line.sku}</span> : null}
              </th>
              <td data-label="From">{line.fromLocationName}</td>
              <td data-label={transfer.status === 'draft' ? 'To ship' : 'Shipped'} className="num">
                {line.quantity}
              </td>
              <td data-label="Received" className="num">
                {line.received}
              </td>
              <td data-label="Written off" className="num">
                {line.writtenOff}
              </td>
              <td data-label="In transit" className={line.inTransit > 0 ? 'num transfer-transit' : 'num'}>
                {line.inTransit}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function TransferDetailPage() {
  const { id = '' } = useParams();
  const detail = useActorRef(transferDetailMachine, { input: { params: { id } } });
  const data = useSelector(detail, (s) => s.context.data);
  const failed = useSelector(detail, (s) => s.matches('error'));
  const missing = useSelector(detail, (s) => s.matches('notFound'));
  const error = useSelector(detail, (s) => s.context.error);
  const writes = useSelector(detail, (s) => s.context.writes);
  const canMove = useCan('stock:update');
  const [dialog, setDialog] = useState<Dialog>('none');
  useUndoShortcut(); // Ctrl+Z: the last step's Undo, while its toast shows

  const pending = Object.values(writes).find((w) => w.status === 'pending');
  const refused = Object.entries(writes).find(([, w]) => w.status === 'failed');
  const send = (write: TransferWrite) => {
    if (refused) detail.send({ type: 'DISMISS_WRITE', id: refused[0] });
    detail.send({ type: 'WRITE', id: newWriteId(), write });
  };
  const close = () => setDialog('none');

  if (missing) {
    return (
      <div className="page transfers-page">
        <EmptyState icon="truck" title="Transfer not found" text="It may never have existed, or the link is wrong.">
          <Link to="/transfers" className="btn btn-secondary">
            Back to transfers
          </Link>
        </EmptyState>
      </div>
    );
  }
  if (failed)
    return (
      <div className="page transfers-page">
        <ErrorBox
          title="Failed to load the transfer"
          message={error ?? ''}
          onRetry={() => detail.send({ type: 'RETRY' })}
        />
      </div>
    );
  if (!data) return <TruckLoader label="Loading transfer..." fullScreen={false} />;

  const { transfer, locations } = data;
  const underway = isUnderway(transfer.status);
  return (
    <div className="page transfers-page transfer-detail">
      <Link to="/transfers" className="btn btn-ghost back-link">
        <Icon name="arrow-left" size={16} /> Transfers
      </Link>
      <header className="page-header">
        <div>
          <h1 className="page-title transfer-title">
            Transfer #{transfer.number} <TransferStatusBadge status={transfer.status} />
          </h1>
          <p className="page-subtitle">
            <TransferRoute from={transfer.fromSiteName} to={transfer.toSiteName} />
          </p>
        </div>
        {canMove && (transfer.status === 'draft' || underway) ? (
          <div className="page-actions transfer-actions">
            {transfer.status === 'draft' ? (
              <>
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => setDialog('cancel')}
                  disabled={!!pending}
                >
                  Cancel transfer
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => send({ kind: 'ship', number: transfer.number })}
                  disabled={!!pending}
                >
                  <Icon name="truck" size={18} /> {pending?.write.kind === 'ship' ? 'Shipping...' : 'Ship'}
                </button>
              </>
            ) : (
              <>
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => setDialog('write-off')}
                  disabled={!!pending}
                >
                  Write off
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => setDialog('receive')}
                  disabled={!!pending}
                >
                  <Icon name="check" size={18} /> Receive
                </button>
              </>
            )}
          </div>
        ) : null}
      </header>

      {refused && dialog === 'none' ? <ErrorBox title="Not done" message={refused[1].error ?? ''} /> : null}

      <p className="transfer-meta">
        Drafted {formatDateTime(transfer.createdAt)} by {transfer.createdBy}
        {transfer.shippedAt ? ` · shipped ${formatDateTime(transfer.shippedAt)}` : ''}
        {transfer.closedAt && transfer.status === 'received' ? ` · received ${formatDateTime(transfer.closedAt)}` : ''}
        {transfer.closedAt && transfer.status === 'cancelled'
          ? ` · cancelled ${formatDateTime(transfer.closedAt)}`
          : ''}
      </p>
      {transfer.note ? <p className="transfer-note">{transfer.note}</p> : null}
      {underway ? (
        <p className="transfers-in-transit" role="status">
          <Icon name="truck" size={18} />
          <span>
            <strong>{plural(transfer.inTransit, 'unit', 'units')} in transit</strong> to {transfer.toSiteName}: not on
            any shelf until received or written off.
          </span>
        </p>
      ) : null}

      <Figures transfer={transfer} />
      <Lines transfer={transfer} />

      {dialog === 'receive' ? (
        <ReceiveDialog
          transfer={transfer}
          locations={locations.filter((l) => l.siteId === transfer.toSiteId && !l.archivedAt)}
          pending={pending?.write.kind === 'receive'}
          error={refused?.[1].write.kind === 'receive' ? refused[1].error : null}
          onSubmit={(body) => send({ kind: 'receive', number: transfer.number, body })}
          onClose={close}
          onDone={close}
        />
      ) : null}
      {dialog === 'write-off' ? (
        <WriteOffDialog
          transfer={transfer}
          pending={pending?.write.kind === 'write-off'}
          error={refused?.[1].write.kind === 'write-off' ? refused[1].error : null}
          onSubmit={(body) => send({ kind: 'write-off', number: transfer.number, body })}
          onClose={close}
        />
      ) : null}
      {dialog === 'cancel' ? (
        <ConfirmDialog
          title={`Cancel transfer #${transfer.number}?`}
          message="Nothing was shipped: the stock stays where it is. A cancelled transfer cannot be shipped."
          confirmLabel="Cancel transfer"
          busyLabel="Cancelling..."
          busy={pending?.write.kind === 'cancel'}
          onConfirm={() => {
            send({ kind: 'cancel' });
            close();
          }}
          onCancel={close}
        />
      ) : null}
    </div>
  );
}
