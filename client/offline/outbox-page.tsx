// The Outbox page (/outbox, from the header badge): changes kept on this device waiting to
// be sent, and the Conflicts list: changes the server refused on replay, each shown against
// the current value, with "Keep current" (drop mine; the choice is recorded) and "Apply
// mine" (sent again against the current version). Nothing leaves this list by itself.
import { useState } from 'react';
import { EmptyState } from '../components/empty-state';
import { errorMessage } from '../lib/api-client';
import { formatDateTime } from '../lib/format';
import { toast } from '../lib/toasts';
import { conflictRows } from './conflict-view';
import { outbox } from './outbox';
import type { ConflictEntry } from './outbox-db';
import { useOutbox } from './use-outbox';
import './offline.css';

export function OutboxPage() {
  const { waiting, conflicts, flushing } = useOutbox();
  const online = typeof navigator === 'undefined' || navigator.onLine;
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Offline changes</h1>
          <p className="page-subtitle">
            Changes made on this device without a connection, and any the server could not apply.
          </p>
        </div>
      </header>

      {conflicts.length > 0 ? (
        <section className="card detail-card" aria-labelledby="conflicts-title">
          <h2 id="conflicts-title" className="card-title">
            Conflicts
          </h2>
          <ul className="outbox-list">
            {conflicts.map((conflict) => (
              <ConflictItem key={conflict.seq} conflict={conflict} />
            ))}
          </ul>
        </section>
      ) : null}

      {waiting.length > 0 ? (
        <section className="card detail-card" aria-labelledby="waiting-title">
          <div className="outbox-row">
            <h2 id="waiting-title" className="card-title">
              Waiting to be sent
            </h2>
            <button
              type="button"
              className="btn btn-sm btn-secondary"
              disabled={!online || flushing}
              onClick={() => void outbox.flush()}
            >
              {flushing ? 'Sending...' : 'Send now'}
            </button>
          </div>
          <ol className="outbox-list">
            {waiting.map((entry) => (
              <li key={entry.seq} className="outbox-row" data-testid="waiting-change">
                <span>{entry.label}</span>
                <span className="outbox-muted">
                  {formatDateTime(new Date(entry.createdAt).toISOString())}
                  {entry.lastError ? ` · ${entry.lastError}` : ''}
                </span>
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {waiting.length === 0 && conflicts.length === 0 ? (
        <EmptyState icon="check-circle" title="Everything is sent" text="No changes are waiting on this device." />
      ) : null}
    </div>
  );
}

function ConflictItem({ conflict }: { conflict: ConflictEntry }) {
  const [busy, setBusy] = useState(false);
  const run = (choice: 'keep' | 'apply') => {
    setBusy(true);
    const done = choice === 'keep' ? outbox.keepCurrent(conflict.seq) : outbox.applyMine(conflict.seq);
    done.then(
      () =>
        toast.success(
          choice === 'keep'
            ? `Kept the current value: ${conflict.entry.label} dropped`
            : `Sending again: ${conflict.entry.label}`,
        ),
      (error: unknown) => {
        setBusy(false);
        toast.error(errorMessage(error, 'Could not resolve the conflict'));
      },
    );
  };
  return (
    <li className="card detail-card" data-testid="conflict" aria-label={`Conflict: ${conflict.entry.label}`}>
      <strong>{conflict.entry.label}</strong>
      <p className="outbox-muted">
        {conflict.message} · made {formatDateTime(new Date(conflict.entry.createdAt).toISOString())}
      </p>
      <dl className="conflict-compare">
        <dt />
        <dt>Yours</dt>
        <dt>Current</dt>
        {conflictRows(conflict).map((row) => (
          <Row key={row.field} field={row.field} mine={row.mine} current={row.current} />
        ))}
      </dl>
      <div className="conflict-actions">
        <button type="button" className="btn btn-sm btn-secondary" disabled={busy} onClick={() => run('keep')}>
          Keep current
        </button>
        <button type="button" className="btn btn-sm btn-primary" disabled={busy} onClick={() => run('apply')}>
          Apply mine
        </button>
      </div>
    </li>
  );
}

function Row({ field, mine, current }: { field: string; mine: string; current: string }) {
  return (
    <>
      <dt>{field}</dt>
      <dd data-testid="mine">{mine}</dd>
      <dd data-testid="current">{current}</dd>
    </>
  );
}
