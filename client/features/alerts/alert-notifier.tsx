// Interrupts the user when the feed pushes a new low-stock alert, on any signed-in screen:
// a browser notification when they allowed it, and an in-app toast when they want one.
// With 'only when out of stock' chosen, it speaks up when an item's stock reaches 0 instead.
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { shouldNotify } from '../../../shared/alerts';
import type { Item } from '../../../shared/inventory';
import { api } from '../../lib/api-client';
import { onFeed } from '../../lib/realtime';
import { showToast } from '../../lib/toasts';
import { createBurstGate } from './alert-burst';
import { currentAlertChoices, loadAlertChoices } from './alert-choices';
import { showBrowserNotification } from './browser-notifications';

export function alertText(name: string, quantity: number, threshold: number): { title: string; body: string } {
  if (quantity <= 0) return { title: `Out of stock: ${name}`, body: `No units left (alert at ${threshold}).` };
  return { title: `Low stock: ${name}`, body: `${quantity} left, at or below the threshold of ${threshold}.` };
}

/** Alerts shown one by one within BURST_WINDOW_MS; the rest are summed up (alert-burst.ts). */
const BURST_MAX = 3;
const BURST_WINDOW_MS = 2000;

export function AlertNotifier({ enabled }: { enabled: boolean }) {
  // The declarative router gives a new navigate on every page change: kept in a ref, so the
  // subscription (and the burst gate's count) outlives navigation.
  const currentNavigate = useNavigate();
  const navigate = useRef(currentNavigate);
  useEffect(() => {
    navigate.current = currentNavigate;
  }, [currentNavigate]);

  useEffect(() => {
    if (!enabled) return;
    loadAlertChoices(true).catch(() => undefined);
    const gate = createBurstGate({
      max: BURST_MAX,
      windowMs: BURST_WINDOW_MS,
      onSummary: (held) => {
        const choices = currentAlertChoices();
        const title = `${held} more ${held === 1 ? 'item needs' : 'items need'} attention`;
        const body = 'See Alerts for every low or out-of-stock item.';
        if (choices.browserNotifications) showBrowserNotification(title, body, 'stockroom-alert-burst', () => navigate.current('/alerts'));
        if (choices.inAppToasts) showToast(`${title} — ${body}`, 'info', 8000);
      },
    });
    const notify = (itemId: string, name: string, quantity: number, threshold: number) =>
      gate(() => {
        const choices = currentAlertChoices();
        const { title, body } = alertText(name || 'An item', quantity, threshold);
        if (choices.browserNotifications) showBrowserNotification(title, body, `stockroom-alert-${itemId}-${quantity}`, () => navigate.current('/alerts'));
        if (choices.inAppToasts) showToast(`${title} — ${body}`, quantity <= 0 ? 'error' : 'info', 6000);
      });
    const offAlert = onFeed('alert', ({ message }) => {
      if (message.type !== 'alert') return;
      const choices = currentAlertChoices();
      if (choices.notifyWhen === 'low' && shouldNotify(choices, message.quantity)) {
        notify(message.item.id, message.item.name, message.quantity, message.threshold);
      }
    });
    const offEvent = onFeed('event', ({ event }) => {
      const data = event.data as { quantity?: number; delta?: number } | null;
      if (currentAlertChoices().notifyWhen !== 'out' || event.type !== 'StockAdjusted' || data?.quantity !== 0 || (data.delta ?? 0) >= 0) return;
      const itemId = event.stream.slice('item-'.length);
      api.get<Item>(`/inventory/${encodeURIComponent(itemId)}`).then(
        (item) => notify(itemId, item.name, 0, item.threshold),
        () => notify(itemId, '', 0, 0),
      );
    });
    return () => {
      offAlert();
      offEvent();
    };
  }, [enabled]);

  return null;
}
