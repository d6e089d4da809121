// Interrupts the user when the feed pushes a new low-stock alert, on any signed-in screen:
// a browser notification when they allowed it, and an in-app toast when they want one.
// With 'only when out of stock' chosen, it speaks up when an item's stock reaches 0 instead.
// Alerts in a row share one toast ("3 items running low: …"); browser notifications,
// which the app cannot merge once shown, go through the burst gate instead.
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { shouldNotify } from '../../../shared/alerts';
import type { Item } from '../../../shared/inventory';
import { api } from '../../lib/api-client';
import { onFeed } from '../../lib/realtime';
import { groupToast } from '../../lib/toasts';
import { createBurstGate } from './alert-burst';
import { currentAlertChoices, loadAlertChoices } from './alert-choices';
import { showBrowserNotification } from './browser-notifications';

/** siteName: the site that is low, in a store of several sites ("Low stock at Shop 2: Milk"). */
export function alertText(
  name: string,
  quantity: number,
  threshold: number,
  siteName?: string,
): { title: string; body: string } {
  const at = siteName ? ` at ${siteName}` : '';
  if (quantity <= 0) return { title: `Out of stock${at}: ${name}`, body: `No units left (alert at ${threshold}).` };
  return { title: `Low stock${at}: ${name}`, body: `${quantity} left, at or below the threshold of ${threshold}.` };
}

interface AlertEntry {
  itemId: string;
  name: string;
  quantity: number;
  threshold: number;
  siteName?: string;
}

/**
 * One alert by its own words; several as "3 items running low (1 out of stock): A, B and C. See
 * Alerts.", or with sites "2 low-stock alerts: Milk at Shop 2 and Milk at Main store. See Alerts."
 */
export function alertsMessage(alerts: AlertEntry[]): string {
  // An item that crossed twice (low, then out) is named once, as it stands now.
  const items = [...new Map(alerts.map((a) => [`${a.itemId}@${a.siteName ?? ''}`, a])).values()];
  if (items.length === 1) {
    const { title, body } = alertText(items[0]!.name, items[0]!.quantity, items[0]!.threshold, items[0]!.siteName);
    return `${title} — ${body}`;
  }
  const out = items.filter((a) => a.quantity <= 0).length;
  // One item low at two sites is two alerts: each says where.
  const names = items.map((a) => (a.siteName ? `${a.name} at ${a.siteName}` : a.name));
  const listed =
    names.length <= 3
      ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
      : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
  const what = items.some((a) => a.siteName) ? 'low-stock alerts' : 'items running low';
  return `${items.length} ${what}${out > 0 ? ` (${out} out of stock)` : ''}: ${listed}. See Alerts.`;
}

/** Browser notifications shown one by one within BURST_WINDOW_MS; the rest are summed up (alert-burst.ts). */
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
        const title = `${held} more ${held === 1 ? 'item needs' : 'items need'} attention`;
        const body = 'See Alerts for every low or out-of-stock item.';
        if (currentAlertChoices().browserNotifications)
          showBrowserNotification(title, body, 'stockroom-alert-burst', () => navigate.current('/alerts'));
      },
    });
    const notify = (itemId: string, name: string, quantity: number, threshold: number, siteName?: string) => {
      const choices = currentAlertChoices();
      const entry = { itemId, name: name || 'An item', quantity, threshold, ...(siteName ? { siteName } : {}) };
      if (choices.inAppToasts)
        groupToast({
          group: 'stock-alerts',
          entry,
          render: alertsMessage,
          kind: quantity <= 0 ? 'error' : 'info',
          durationMs: 6000,
        });
      if (!choices.browserNotifications) return;
      gate(() => {
        const { title, body } = alertText(entry.name, quantity, threshold, siteName);
        showBrowserNotification(title, body, `stockroom-alert-${itemId}-${siteName ?? ''}-${quantity}`, () =>
          navigate.current('/alerts'),
        );
      });
    };
    const offAlert = onFeed('alert', ({ message }) => {
      if (message.type !== 'alert') return;
      const choices = currentAlertChoices();
      // 'Only when out of stock' hears the total run out below; a site running out says so here.
      if ((choices.notifyWhen === 'low' || message.siteId) && shouldNotify(choices, message.quantity)) {
        notify(message.item.id, message.item.name, message.quantity, message.threshold, message.siteName);
      }
    });
    const offEvent = onFeed('event', ({ event }) => {
      const data = event.data as { quantity?: number; delta?: number } | null;
      if (
        currentAlertChoices().notifyWhen !== 'out' ||
        event.type !== 'StockAdjusted' ||
        data?.quantity !== 0 ||
        (data.delta ?? 0) >= 0
      )
        return;
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
