// An item's history: each event with who, when and what changed, newest first; prices in
// the store's currency as it was when each was set. A transfer's step has Revert (it undoes
// the whole step, every line); the undoing itself has none (ship or receive again instead).
import type { FieldChange, HistoryEntry } from '../../../../shared/inventory';
import type { MoneyFormat } from '../../../../shared/money-format';
import { Icon, type IconName } from '../../../components/icons';
import { formatDate, formatDateTime, formatPrice, formatRelative } from '../../../lib/format';
import { useStoreMoney } from '../../../lib/store-money';
import { FIELD_LABELS } from '../item-draft';
import { useState } from 'react';
import { RevertDialog } from '../../../components/revert-dialog';
import { useCan, useSession } from '../../../lib/session-context';

const REASONS: Record<string, string> = {
  sale: 'Sale',
  restock: 'Restock',
  correction: 'Correction',
  damage: 'Damage',
  count: 'Stock count',
};

const TYPE_INFO: Record<HistoryEntry['type'], { icon: IconName; tone: string }> = {
  ItemCreated: { icon: 'plus', tone: 'create' },
  ItemUpdated: { icon: 'edit', tone: 'update' },
  StockAdjusted: { icon: 'box', tone: 'stock' },
  StockMoved: { icon: 'arrow-right', tone: 'stock' },
  StockShipped: { icon: 'truck', tone: 'stock' },
  StockReceived: { icon: 'truck', tone: 'stock' },
  TransitWrittenOff: { icon: 'trending-down', tone: 'delete' },
  ItemDeleted: { icon: 'trash', tone: 'delete' },
};

function show(field: string, value: unknown, categoryNames: Record<string, string>, money: MoneyFormat): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'price') return formatPrice(Number(value), money);
  if (field === 'expiryDate') return formatDate(String(value));
  if (field === 'categoryId') return categoryNames[String(value)] ?? 'another category';
  return String(value);
}

/** A transfer step's undoing on the item: the opposite step, citing the one it undid. */
const undidStep = (entry: HistoryEntry) =>
  Boolean(entry.reverts) &&
  (entry.type === 'StockShipped' || entry.type === 'StockReceived' || entry.type === 'TransitWrittenOff');

function undoTitle(entry: HistoryEntry): string {
  const t = entry.transfer;
  const which = t?.number ? `transfer #${t.number}` : 'a transfer';
  const units = Math.abs(t?.quantity ?? 0);
  const where = entry.location?.name;
  switch (entry.type) {
    case 'StockReceived':
      return `Undid the shipment of ${which} · ${units} back${where ? ` at ${where}` : ''}`;
    case 'StockShipped':
      return `Undid the receipt of ${which} · ${units} back in transit${where ? ` from ${where}` : ''}`;
    default:
      return `Undid the write-off of ${which} · ${units} in transit again`;
  }
}

function title(entry: HistoryEntry): string {
  if (undidStep(entry)) return undoTitle(entry);
  switch (entry.type) {
    case 'ItemCreated':
      return 'Item created';
    case 'ItemDeleted':
      return 'Item deleted';
    case 'StockAdjusted': {
      const delta = entry.delta ?? 0;
      return `Stock ${delta >= 0 ? '+' : '−'}${Math.abs(delta)} · ${REASONS[entry.reason ?? ''] ?? 'Adjustment'}`;
    }
    case 'StockMoved':
      return entry.moved
        ? `Moved ${entry.moved.quantity} · ${entry.moved.from.name} → ${entry.moved.to.name}`
        : 'Stock moved';
    case 'StockShipped':
    case 'StockReceived': {
      const t = entry.transfer;
      const which = t?.number ? `transfer #${t.number}` : 'a transfer';
      const where = entry.location ? ` ${entry.type === 'StockShipped' ? 'from' : 'at'} ${entry.location.name}` : '';
      return entry.type === 'StockShipped'
        ? `Shipped ${t?.quantity ?? ''}${where} · ${which}`
        : `Received ${t?.quantity ?? ''}${where} · ${which}`;
    }
    case 'TransitWrittenOff': {
      const t = entry.transfer;
      return `Wrote off ${t?.quantity ?? ''} in transit · ${t?.number ? `transfer #${t.number}` : 'a transfer'}`;
    }
    case 'ItemUpdated':
      return 'Details updated';
  }
}

function Change({
  change,
  created,
  categoryNames,
  money,
}: {
  change: FieldChange;
  created: boolean;
  categoryNames: Record<string, string>;
  money: MoneyFormat;
}) {
  const label = FIELD_LABELS[change.field] ?? change.field;
  return (
    <li>
      <span className="history-field">{label}</span>{' '}
      {created ? (
        <span className="history-to">{show(change.field, change.to, categoryNames, money)}</span>
      ) : (
        <>
          <span className="history-from">{show(change.field, change.from, categoryNames, money)}</span>
          <Icon name="arrow-right" size={12} className="history-arrow" />
          <span className="history-to">{show(change.field, change.to, categoryNames, money)}</span>
        </>
      )}
    </li>
  );
}

export function ItemHistory({
  entries,
  categoryNames,
  onReverted,
  readOnly = false,
}: {
  entries: HistoryEntry[];
  categoryNames: Record<string, string>;
  onReverted?: () => void;
  readOnly?: boolean;
}) {
  const newestFirst = [...entries].sort((a, b) => b.version - a.version);
  const [reverting, setReverting] = useState<string | null>(null);
  const canRevertAny = useCan('changes:revert');
  const me = useSession().user?.id;
  // A price is written in the currency the store had when it was set (the entry's own), else today's.
  const storeMoney = useStoreMoney();
  return (
    <section className="card detail-card" aria-labelledby="history-title">
      <h2 id="history-title" className="card-title">
        <Icon name="history" size={18} /> History
      </h2>
      {newestFirst.length === 0 ? <p className="muted">No changes recorded yet.</p> : null}
      <ol className="history-list">
        {newestFirst.map((entry) => {
          const info = TYPE_INFO[entry.type];
          const changes =
            entry.type === 'StockAdjusted'
              ? entry.changes.filter((c) => c.field === 'quantity')
              : entry.type === 'ItemCreated'
                ? entry.changes.filter((c) => c.to !== null && c.to !== '' && c.field !== 'description')
                : entry.changes;
          return (
            <li key={entry.version} className={`history-entry history-${info.tone}`}>
              <span className="history-dot" aria-hidden="true">
                <Icon name={info.icon} size={14} />
              </span>
              <div className="history-body">
                <div className="history-head">
                  <strong>{title(entry)}</strong>
                  <time dateTime={entry.timestamp} title={formatDateTime(entry.timestamp)}>
                    {formatRelative(entry.timestamp)}
                  </time>
                </div>
                <span className="history-actor">
                  {/* A stocktake's count: the number is the counter's, posting it the approver's. */}
                  {entry.countedBy ? `counted by ${entry.countedBy} · approved by ` : 'by '}
                  {entry.actor?.name || 'Unknown User'}
                </span>
                {changes.length ? (
                  <ul className="history-changes">
                    {changes.map((change) => (
                      <Change
                        key={change.field}
                        change={change}
                        created={entry.type === 'ItemCreated'}
                        categoryNames={categoryNames}
                        money={entry.money ?? storeMoney}
                      />
                    ))}
                  </ul>
                ) : null}
                {entry.note ? <p className="history-note">“{entry.note}”</p> : null}
                {entry.reverts ? (
                  <p className="history-note">
                    Reverted: {entry.reverts.summary}
                    {entry.reverts.reason ? ` — why: ${entry.reverts.reason}` : ''}
                  </p>
                ) : null}
                {entry.revertedBy ? (
                  <p className="muted">
                    Reverted by {entry.revertedBy.name} on {formatDateTime(entry.revertedBy.at)}
                  </p>
                ) : !readOnly && entry.eventId && !undidStep(entry) && (canRevertAny || entry.actor?.uid === me) ? (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => setReverting(entry.eventId!)}
                  >
                    Revert
                  </button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      {reverting ? (
        <RevertDialog eventId={reverting} onClose={() => setReverting(null)} onDone={() => onReverted?.()} />
      ) : null}
    </section>
  );
}
