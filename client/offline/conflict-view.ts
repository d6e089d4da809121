// What the Conflicts list shows for a refused change: per field, the user's value against
// the server's current one. Edits name their fields (the request body is snake_case, the
// item camelCase); stock changes show the delta against the current quantity.
import type { ConflictEntry } from './outbox-db';

export interface ConflictRow {
  field: string;
  mine: string;
  current: string;
}

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const human = (key: string) =>
  camel(key)
    .replace(/([A-Z])/g, ' $1')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/ Id$/, '');

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function conflictRows(conflict: ConflictEntry): ConflictRow[] {
  const body = (conflict.entry.body ?? {}) as Record<string, unknown>;
  const current = (conflict.current ?? {}) as Record<string, unknown>;
  if (conflict.entry.kind === 'edit') {
    return Object.entries(body)
      .filter(([key]) => key !== 'expected_version')
      .map(([key, mine]) => ({
        field: human(key),
        mine: shown(mine),
        current: shown(current[camel(key)] ?? current[key]),
      }));
  }
  const rows: ConflictRow[] = [];
  if (typeof body.delta === 'number') {
    rows.push({
      field: 'Stock change',
      mine: `${body.delta > 0 ? '+' : ''}${body.delta}`,
      current: `${shown(current.quantity)} in stock`,
    });
  } else {
    for (const [key, mine] of Object.entries(body))
      rows.push({ field: human(key), mine: shown(mine), current: shown(current[camel(key)]) });
  }
  return rows;
}
