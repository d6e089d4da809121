// The scanner's calls, through the shared API client (token, idempotency keys, retries):
// find the item behind a code, and adjust its stock from the quick sheet.
import type { AdjustReason, Item } from '../../../shared/inventory';
import { api, isStatus } from '../../lib/api-client';
import type { ScannedCode } from './scanned-code';

export type LookupResult = { kind: 'found'; item: Item } | { kind: 'unknown'; code: string };

const enc = encodeURIComponent;

/** A 404 means "no such item"; anything else is a real failure and is thrown. */
async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (isStatus(error, 404)) return null;
    throw error;
  }
}

export async function lookUpCode(scanned: ScannedCode): Promise<LookupResult> {
  if (scanned.kind === 'item-url') {
    const item = await orNull(api.get<Item>(`/inventory/${enc(scanned.itemId)}`));
    return item ? { kind: 'found', item } : { kind: 'unknown', code: scanned.text };
  }
  for (const code of [scanned.code, ...scanned.alternates]) {
    const item = await orNull(api.get<Item>(`/inventory/by-barcode/${enc(code)}`));
    if (item) return { kind: 'found', item };
  }
  return { kind: 'unknown', code: scanned.code };
}

export interface AdjustOutcome {
  item: Item;
  /** False when a count matched the stock already and nothing was written. */
  changed: boolean;
}

export type QuickAdjustment = { kind: 'delta'; delta: 1 | -1 } | { kind: 'count'; counted: number };

/**
 * Applies a quick-sheet adjustment and answers the item as it now is. A count is turned
 * into a delta against the quantity read just now, not the one shown when the sheet
 * opened, so someone else's sale in between is not undone.
 */
export async function applyQuickAdjustment(itemId: string, adjustment: QuickAdjustment): Promise<AdjustOutcome> {
  let delta: number;
  let reason: AdjustReason;
  if (adjustment.kind === 'count') {
    const current = await api.get<Item>(`/inventory/${enc(itemId)}`);
    delta = adjustment.counted - current.quantity;
    if (delta === 0) return { item: current, changed: false };
    reason = 'count';
  } else {
    delta = adjustment.delta;
    reason = 'correction'; // as the +/- buttons on item cards
  }
  const item = await api.post<Item>(`/inventory/${enc(itemId)}/adjust`, { delta, reason });
  return { item, changed: true };
}
