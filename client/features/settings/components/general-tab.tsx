// General: store name, contact email, the low-stock threshold new items start with, the
// store's currency and number format, and whether guests may sign in.
import type { Settings } from '../../../../shared/accounts';
import { SwitchRow } from '../../../components/switch-row';
import { MoneyFields } from './money-fields';

export function GeneralTab({
  draft,
  canEdit,
  onEdit,
}: {
  draft: Settings;
  canEdit: boolean;
  onEdit: (changes: Partial<Settings>) => void;
}) {
  return (
    <div className="form-stack settings-form">
      <div className="field">
        <label htmlFor="store-name">Store Name</label>
        <input
          id="store-name"
          className="input"
          value={draft.storeName}
          disabled={!canEdit}
          maxLength={100}
          onChange={(e) => onEdit({ storeName: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="store-email">Contact Email</label>
        <input
          id="store-email"
          type="email"
          className="input"
          value={draft.email}
          placeholder="store@example.com"
          disabled={!canEdit}
          onChange={(e) => onEdit({ email: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="store-threshold">Default Low-Stock Threshold</label>
        <input
          id="store-threshold"
          type="number"
          min={0}
          step={1}
          className="input settings-number"
          value={draft.lowStockThreshold}
          disabled={!canEdit}
          aria-describedby="store-threshold-hint"
          onChange={(e) => onEdit({ lowStockThreshold: Math.max(0, Math.floor(Number(e.target.value) || 0)) })}
        />
        <span className="field-hint" id="store-threshold-hint">
          New items start with this threshold; each item can change its own.
        </span>
      </div>
      <MoneyFields draft={draft} canEdit={canEdit} onEdit={onEdit} />
      <SwitchRow
        label="Allow guest sign-in"
        hint="Off unless you turn it on. Guests look at stock, alerts and the wall display without an account: they change nothing, never see who made a change, and cannot export."
        checked={draft.allowGuests}
        disabled={!canEdit}
        onChange={(on) => onEdit({ allowGuests: on })}
      />
    </div>
  );
}
