// Store settings decisions: pure `(command, state, now) => events`. Only fields that
// actually change are recorded, so saving an unchanged form writes nothing.
import type { Settings, SettingsEvent } from '../../../shared/accounts.js';
import { checkCurrency, checkLocale, type Checked } from '../../../shared/money-format.js';
import { sameCsvFormat } from '../../../shared/csv-format.js';
import { ValidationError } from '../../errors.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type SettingsCommand = { type: 'ChangeSettings'; changes: Partial<Settings> };

export function decideSettings(command: SettingsCommand, state: Settings, _now: Date): SettingsEvent[] {
  const wanted: Partial<Settings> = { ...command.changes };
  if (wanted.storeName !== undefined) {
    wanted.storeName = wanted.storeName.trim();
    if (!wanted.storeName) throw new ValidationError('Store name is required');
  }
  if (wanted.email !== undefined) {
    wanted.email = wanted.email.trim().toLowerCase();
    if (wanted.email && !EMAIL.test(wanted.email)) throw new ValidationError('Invalid email address');
  }
  if (wanted.currency !== undefined) wanted.currency = checked(checkCurrency(wanted.currency));
  if (wanted.locale !== undefined) wanted.locale = checked(checkLocale(wanted.locale));
  if (wanted.importFormat)
    wanted.importFormat = { delimiter: wanted.importFormat.delimiter, encoding: wanted.importFormat.encoding };
  const changes: Partial<Settings> = {};
  for (const key of Object.keys(wanted) as Array<keyof Settings>) {
    // importFormat is the one object: equal when its delimiter and encoding are.
    const same =
      key === 'importFormat'
        ? sameCsvFormat(wanted.importFormat ?? null, state.importFormat)
        : wanted[key] === state[key];
    if (!same) (changes as Record<string, unknown>)[key] = wanted[key];
  }
  return Object.keys(changes).length ? [{ type: 'SettingsChanged', data: { changes } }] : [];
}

function checked(result: Checked): string {
  if (!result.ok) throw new ValidationError(result.error);
  return result.value;
}
