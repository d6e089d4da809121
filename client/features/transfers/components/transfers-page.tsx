// /transfers: transfers between sites, newest first, by status and site, with what is in
// transit right now above them; "New transfer" for those who move stock. Live: another
// screen's step shows here at once.
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { TransferSummary } from '../../../../shared/transfers';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { formatDateTime } from '../../../lib/format';
import { useCan } from '../../../lib/session-context';
import type { TransferFilter } from '../api';
import { transfersListMachine } from '../transfers-list.machine';
import { plural, TransferRoute, TransferStatusBadge } from './transfer-status';
import '../transfers.css';

const STATUS_CHOICES: Array<{ value: TransferFilter['status']; label: string }> = [
  { value: 'open', label: 'Open' },
  { value: 'in-transit', label: 'In transit' },
  { value: 'draft', label: 'Drafts' },
  { value: 'received', label: 'Received' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'all', label: 'All' },
];

function TransferRow({ transfer }: { transfer: TransferSummary }) {
  const when =
    transfer.status === 'draft' || transfer.status === 'cancelled' || !transfer.shippedAt
      ? `Drafted ${formatDateTime(transfer.createdAt)} by ${transfer.createdBy}`
      : `Shipped ${formatDateTime(transfer.shippedAt)}`;
  return (
    <li className="transfer-row card">
      <Link to={`/transfers/${encodeURIComponent(transfer.id)}`} className="transfer-row-link">
        <span className="transfer-row-head">
          <span className="transfer-number">#{transfer.number}</span>
          <TransferStatusBadge status={transfer.status} />
        </span>
        <TransferRoute from={transfer.fromSiteName} to={transfer.toSiteName} />
        <span className="transfer-row-meta">
          {plural(transfer.lineCount, 'line', 'lines')} · {plural(transfer.units, 'unit', 'units')} · {when}
        </span>
      </Link>
      {transfer.inTransit > 0 ? (
        <span className="transfer-row-transit" aria-label={`${transfer.inTransit} in transit`}>
          <Icon name="truck" size={16} /> {transfer.inTransit} in transit
        </span>
      ) : null}
    </li>
  );
}

export function TransfersPage() {
  const [filter, setFilter] = useState<TransferFilter>({ status: 'open', siteId: null });
  const list = useActorRef(transfersListMachine, { input: { params: filter } });
  const data = useSelector(list, (s) => s.context.data);
  const failed = useSelector(list, (s) => s.matches('error'));
  const error = useSelector(list, (s) => s.context.error);
  const canMove = useCan('stock:update');

  useEffect(() => {
    list.send({ type: 'SET_PARAMS', params: filter });
  }, [list, filter]);

  const transfers = data?.transfers ?? [];
  const underway = transfers.filter((t) => t.inTransit > 0);
  const inTransit = underway.reduce((sum, t) => sum + t.inTransit, 0);
  const sites = (data?.sites ?? []).filter((s) => !s.archivedAt || s.id === filter.siteId);

  return (
    <div className="page transfers-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Transfers</h1>
          <p className="page-subtitle">Stock on its way between sites: shipped, in transit, received.</p>
        </div>
        {canMove ? (
          <div className="page-actions">
            <Link to="/transfers/new" className="btn btn-primary">
              <Icon name="plus" size={18} /> New transfer
            </Link>
          </div>
        ) : null}
      </header>

      <div className="toolbar transfers-toolbar">
        <div className="segmented" role="group" aria-label="Status">
          {STATUS_CHOICES.map((choice) => (
            <button
              key={choice.value}
              type="button"
              className={filter.status === choice.value ? 'segmented-button active' : 'segmented-button'}
              aria-pressed={filter.status === choice.value}
              onClick={() => setFilter((f) => ({ ...f, status: choice.value }))}
            >
              {choice.label}
            </button>
          ))}
        </div>
        <label className="transfers-site-filter">
          <span className="visually-hidden">Site</span>
          <select
            className="input"
            value={filter.siteId ?? ''}
            onChange={(e) => setFilter((f) => ({ ...f, siteId: e.target.value || null }))}
          >
            <option value="">All sites</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </label>
      </div>

      {inTransit > 0 ? (
        <p className="transfers-in-transit" role="status">
          <Icon name="truck" size={18} />
          <span>
            <strong>{plural(inTransit, 'unit', 'units')} in transit</strong> in{' '}
            {plural(underway.length, 'transfer', 'transfers')}
          </span>
        </p>
      ) : null}

      {failed ? (
        <ErrorBox title="Failed to load transfers" message={error ?? ''} onRetry={() => list.send({ type: 'RETRY' })} />
      ) : null}
      {!data && !failed ? <TruckLoader label="Loading transfers..." fullScreen={false} /> : null}
      {data && transfers.length === 0 ? (
        <EmptyState
          icon="truck"
          title="No transfers here"
          text={
            canMove
              ? 'Send stock from one site to another: draft a transfer, ship it, receive it at the other end.'
              : 'Transfers between sites show here.'
          }
        />
      ) : null}
      {transfers.length > 0 ? (
        <ul className="transfer-list" aria-label="Transfers">
          {transfers.map((t) => (
            <TransferRow key={t.id} transfer={t} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
