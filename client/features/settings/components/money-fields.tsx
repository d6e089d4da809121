// The store's currency and the locale its prices are written for, with a
// sample price as it will read on every screen, label and the wall display.
import { useMemo } from 'react';
import type { Settings } from '../../../../shared/accounts';
import { formatPrice } from '../../../lib/format';
import { currencyChoices, localeChoices } from '../money-choices';

const SAMPLE = 1234.5;

export function MoneyFields({
  draft,
  canEdit,
  onEdit,
}: {
  draft: Settings;
  canEdit: boolean;
  onEdit: (changes: Partial<Settings>) => void;
}) {
  const currencies = useMemo(() => currencyChoices(draft.currency), [draft.currency]);
  const locales = useMemo(() => localeChoices(draft.locale), [draft.locale]);
  return (
    <div className="settings-money">
      <div className="field">
        <label htmlFor="store-currency">Currency</label>
        <select
          id="store-currency"
          className="input"
          value={draft.currency}
          disabled={!canEdit}
          onChange={(e) => onEdit({ currency: e.target.value })}
        >
          {currencies.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="store-locale">Number Format</label>
        <select
          id="store-locale"
          className="input"
          value={draft.locale}
          disabled={!canEdit}
          aria-describedby="store-money-hint"
          onChange={(e) => onEdit({ locale: e.target.value })}
        >
          {locales.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
      </div>
      <p className="field-hint settings-money-sample" id="store-money-hint" aria-live="polite">
        Prices read <strong data-testid="money-sample">{formatPrice(SAMPLE, draft)}</strong>. Changing the currency
        relabels prices; it converts nothing.
      </p>
    </div>
  );
}
