// The Move dialog's rules, pure: which location to move from to start with, what the form
// refuses before asking, and which input a refusal of the server is about (POST /api/moves
// names `fromLocationId`, `toLocationId` or `quantity`; "Insufficient stock at …" names the
// location it lacks at, which is the quantity's problem; "… is archived" names the place).
import type { ItemLocations } from '../../../shared/inventory';
import { ApiError, errorMessage } from '../../lib/api-client';

export type MoveField = 'from' | 'to' | 'quantity' | 'form';
export type MoveErrors = Partial<Record<MoveField, string>>;

export interface MoveForm {
  fromId: string;
  toId: string;
  quantity: string;
  note: string;
}

/** Where to move from to start with: where most of it is at the preferred site, else anywhere. */
export function initialFrom(places: ItemLocations, preferredSiteId: string | null): string {
  const stocked = places.locations.filter((l) => l.quantity > 0 && !l.archived);
  const atSite = stocked.filter((l) => l.siteId === preferredSiteId);
  const pool = atSite.length ? atSite : stocked;
  return [...pool].sort((a, b) => b.quantity - a.quantity)[0]?.locationId ?? '';
}

/** What the form says before sending: each input's problem, none when it may be sent. */
export function checkMove(form: MoveForm): MoveErrors {
  const errors: MoveErrors = {};
  if (!form.fromId) errors.from = 'Choose where to move from';
  if (!form.toId) errors.to = 'Choose where to move to';
  else if (form.toId === form.fromId) errors.to = 'Choose another location than the one it leaves';
  if (!/^\d+$/.test(form.quantity.trim()) || parseInt(form.quantity, 10) <= 0)
    errors.quantity = 'Enter a whole number greater than 0';
  return errors;
}

const FIELDS: Record<string, MoveField> = {
  fromLocationId: 'from',
  toLocationId: 'to',
  quantity: 'quantity',
};

/** The input a refusal is about, with its message (`names`: the two locations' names as shown). */
export function moveRefusal(
  error: unknown,
  names: { from: string; to: string },
): { field: MoveField; message: string } {
  const message = errorMessage(error, 'Could not move the stock');
  if (!(error instanceof ApiError)) return { field: 'form', message };
  const body = (error.body ?? {}) as { field?: unknown; locationId?: unknown };
  if (typeof body.field === 'string' && FIELDS[body.field]) return { field: FIELDS[body.field]!, message };
  if (typeof body.locationId === 'string') return { field: 'quantity', message };
  if (names.to && message.startsWith(`${names.to} `)) return { field: 'to', message };
  if (names.from && message.startsWith(`${names.from} `)) return { field: 'from', message };
  return { field: 'form', message };
}
