// Toasts that repeat collapse into one: the same message counts up on one toast,
// raises of one group (counts kept offline, low-stock alerts) sum up in one text, a toast with
// an Undo is never merged, and each Undo button names the change it takes back.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  currentToasts,
  dismissToast,
  groupToast,
  holdToasts,
  showToast,
  TOAST_DURATION_MS,
} from '../../client/lib/toasts.js';
import { queuedCountsMessage } from '../../client/features/stocktake/session.machine.js';
import { alertsMessage } from '../../client/features/alerts/alert-notifier.js';
import { adjustChange, editChange } from '../../client/features/inventory/undo-labels.js';

afterEach(() => {
  holdToasts(false);
  for (const t of currentToasts()) dismissToast(t.id);
  vi.useRealTimers();
});

describe('collapsing toasts', () => {
  it('counts a repeated message on one toast and restarts its time', () => {
    vi.useFakeTimers();
    showToast('Could not reach the server', 'error');
    vi.advanceTimersByTime(TOAST_DURATION_MS - 100);
    showToast('Could not reach the server', 'error');
    showToast('Could not reach the server', 'error');
    expect(currentToasts().map((t) => [t.message, t.repeats])).toEqual([['Could not reach the server', 3]]);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(currentToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(currentToasts()).toHaveLength(0);
  });

  it('sums up a group in one toast: "3 counts waiting to send"', () => {
    for (const name of ['Red Wine', 'White Wine', 'Rose Wine']) {
      groupToast({ group: 'counts', entry: name, render: queuedCountsMessage });
    }
    const shown = currentToasts();
    expect(shown).toHaveLength(1);
    expect(shown[0]!.message).toBe('3 counts waiting to send: they go when the connection returns');
  });

  it('starts the group afresh once its toast is gone', () => {
    const first = groupToast({ group: 'counts', entry: 'Red Wine', render: queuedCountsMessage });
    groupToast({ group: 'counts', entry: 'White Wine', render: queuedCountsMessage });
    dismissToast(first);
    groupToast({ group: 'counts', entry: 'Rose Wine', render: queuedCountsMessage });
    expect(currentToasts().map((t) => t.message)).toEqual([
      'No connection: the count of Rose Wine will be sent when it returns',
    ]);
  });

  it('turns a group into an error when one of its raises is one', () => {
    groupToast({
      group: 'alerts',
      entry: { itemId: 'a', name: 'Milk', quantity: 2, threshold: 3 },
      render: alertsMessage,
    });
    groupToast({
      group: 'alerts',
      entry: { itemId: 'b', name: 'Eggs', quantity: 0, threshold: 6 },
      render: alertsMessage,
      kind: 'error',
    });
    groupToast({
      group: 'alerts',
      entry: { itemId: 'c', name: 'Bread', quantity: 1, threshold: 2 },
      render: alertsMessage,
    });
    expect(currentToasts().map((t) => [t.kind, t.message])).toEqual([
      ['error', '3 items running low (1 out of stock): Milk, Eggs and Bread. See Alerts.'],
    ]);
  });

  it('never merges toasts that carry an Undo', () => {
    const run = () => undefined;
    showToast('Stock updated', 'success', 10_000, { label: 'Undo -1 Milk', run });
    showToast('Stock updated', 'success', 10_000, { label: 'Undo -1 Eggs', run });
    expect(currentToasts().map((t) => t.action?.label)).toEqual(['Undo -1 Milk', 'Undo -1 Eggs']);
  });
});

describe('holding toasts', () => {
  it('keeps every toast while held, and gives each the time it had left when released', () => {
    vi.useFakeTimers();
    showToast('Saved', 'success');
    vi.advanceTimersByTime(2000);
    holdToasts(true);
    vi.advanceTimersByTime(60_000);
    expect(currentToasts()).toHaveLength(1);
    holdToasts(false);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 2000 - 1);
    expect(currentToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(currentToasts()).toHaveLength(0);
  });

  it('lets go once the last toast is gone, so the next one still times out', () => {
    vi.useFakeTimers();
    const id = showToast('Saved', 'success');
    holdToasts(true);
    dismissToast(id);
    showToast('Saved again', 'success');
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    expect(currentToasts()).toHaveLength(0);
  });
});

describe('what an Undo names', () => {
  it('names an adjustment by its delta and item', () => {
    expect(adjustChange('Crème fraîche 1 kg', -1)).toBe('-1 Crème fraîche 1 kg');
    expect(adjustChange('Spirit Level', 3, 'restock')).toBe('+3 Spirit Level (restock)');
  });

  it('names an edit by the fields it changed', () => {
    expect(editChange('Tape Measure', { price: 9 })).toBe('price change on Tape Measure');
    expect(editChange('Tape Measure', { price: 9, threshold: 2 })).toBe('price and threshold change on Tape Measure');
    expect(editChange('Tape Measure', { name: 'a', price: 1, threshold: 2, sku: 'x' })).toBe('changes to Tape Measure');
  });

  it('names one item crossing twice once, as it stands now', () => {
    expect(
      alertsMessage([
        { itemId: 'a', name: 'Milk', quantity: 2, threshold: 3 },
        { itemId: 'a', name: 'Milk', quantity: 0, threshold: 3 },
      ]),
    ).toBe('Out of stock: Milk — No units left (alert at 3).');
  });
});
