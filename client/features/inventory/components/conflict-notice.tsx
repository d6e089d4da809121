// Shown when saving hit a newer version: what someone else changed (their values now),
// and the two ways out: take their version, or save mine over it.
import type { Item } from '../../../../shared/inventory';
import type { MoneyFormat } from '../../../../shared/money-format';
import { Icon } from '../../../components/icons';
import { formatDate, formatPrice } from '../../../lib/format';
import { useStoreMoney } from '../../../lib/store-money';
import { FIELD_LABELS } from '../item-draft';
import type { Conflict } from '../edit-item.machine';

function valueOf(item: Item, field: string, money: MoneyFormat): string {
  const value = item[field as keyof Item];
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'price') return formatPrice(Number(value), money);
  if (field === 'expiryDate') return formatDate(String(value));
  return String(value);
}

export function ConflictNotice({
  conflict,
  busy,
  onReload,
  onOverwrite,
}: {
  conflict: Conflict;
  busy: boolean;
  onReload: () => void;
  onOverwrite: () => void;
}) {
  const money = useStoreMoney();
  return (
    <section className="conflict-box" role="alert" aria-labelledby="conflict-title">
      <div className="conflict-head">
        <Icon name="alert" size={20} />
        <h2 id="conflict-title">This item was changed by someone else</h2>
      </div>
      <p>While you were editing, the item was saved with these changes:</p>
      {conflict.fields.length ? (
        <ul className="conflict-list">
          {conflict.fields.map((field) => (
            <li key={field}>
              <span>{FIELD_LABELS[field] ?? field}</span> now <strong>{valueOf(conflict.current, field, money)}</strong>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No visible field differs (only its version moved on).</p>
      )}
      <div className="conflict-actions">
        <button type="button" className="btn btn-secondary" onClick={onReload} disabled={busy}>
          Reload their version
        </button>
        <button type="button" className="btn btn-warning" onClick={onOverwrite} disabled={busy}>
          Overwrite with my changes
        </button>
      </div>
    </section>
  );
}
