// The Alerts screen's pure parts: how pushed events change the alerts list (stock, recoveries,
// renames, the user's own dismissals), searching it, and which alerts notify and how they read;
// in a store of several sites, an item's row per low site.
import { produce } from 'immer';
import { describe, expect, it } from 'vitest';
import { shouldNotify, type LowStockAlert } from '../../shared/alerts.js';
import type { FeedEvent } from '../../shared/realtime.js';
import {
  applyAlertWrite,
  filterAlerts,
  reduceAlerts,
  type AlertsData,
} from '../../client/features/alerts/alert-reducers.js';
import { alertsMessage, alertText } from '../../client/features/alerts/alert-notifier.js';

let version = 10;
function event(stream: string, type: string, data: unknown, streamType = stream.split('-')[0]!): FeedEvent {
  version += 1;
  return {
    type,
    stream,
    streamType,
    version,
    data,
    actor: { uid: 'u1', name: 'Una' },
    time: '2030-01-02T03:04:05.000Z',
  };
}

function alert(itemId: string, overrides: Partial<LowStockAlert> = {}): LowStockAlert {
  return {
    itemId,
    name: `Item ${itemId}`,
    sku: `SKU-${itemId}`,
    category: 'Pantry',
    categoryId: 'c1',
    quantity: 2,
    threshold: 5,
    since: '2030-01-01T00:00:00.000Z',
    dismissed: false,
    dismissedAt: null,
    ...overrides,
  };
}

describe('alerts list reducer', () => {
  const params = { uid: 'me' };
  const data = (): AlertsData => ({ alerts: [alert('a'), alert('b', { categoryId: 'c2', category: 'Dairy' })] });
  const apply = (base: AlertsData, e: FeedEvent) => {
    let effect = '';
    const next = produce(base, (d) => {
      effect = reduceAlerts(d, e, params);
    });
    return { next, effect };
  };

  it('patches stock, removes recovered or deleted items and fetches a new low item', () => {
    expect(apply(data(), event('item-a', 'StockAdjusted', { delta: -1, quantity: 1 })).next.alerts[0]!.quantity).toBe(
      1,
    );
    expect(
      apply(data(), event('item-a', 'ItemRecovered', { quantity: 9, threshold: 5 })).next.alerts.map((a) => a.itemId),
    ).toEqual(['b']);
    expect(
      apply(data(), event('item-b', 'ItemDeleted', { name: 'b', sku: 'b' })).next.alerts.map((a) => a.itemId),
    ).toEqual(['a']);
    expect(apply(data(), event('item-z', 'ItemWentLow', { quantity: 1, threshold: 2 })).effect).toBe('refetch');
    expect(apply(data(), event('item-z', 'StockAdjusted', { delta: 1, quantity: 9 })).effect).toBe('ignored');
  });

  it('follows renames and category moves', () => {
    const renamed = apply(
      data(),
      event('item-a', 'ItemUpdated', {
        changes: { name: { from: 'x', to: 'Jasmine Rice' }, threshold: { from: 5, to: 6 } },
      }),
    );
    expect(renamed.next.alerts[0]).toMatchObject({ name: 'Jasmine Rice', threshold: 6 });
    expect(
      apply(data(), event('item-a', 'ItemUpdated', { changes: { categoryId: { from: 'c1', to: 'c2' } } })).effect,
    ).toBe('refetch');
    const category = apply(
      data(),
      event('category-c2', 'CategoryUpdated', { changes: { name: { from: 'Dairy', to: 'Chilled' } } }),
    );
    expect(category.next.alerts.map((a) => a.category)).toEqual(['Pantry', 'Chilled']);
  });

  it('flips only my own dismissals', () => {
    const mine = apply(data(), event('alerts-me', 'AlertDismissed', { uid: 'me', itemId: 'a', episode: 7 }, 'alerts'));
    expect(mine.next.alerts[0]).toMatchObject({ dismissed: true, dismissedAt: '2030-01-02T03:04:05.000Z' });
    expect(
      apply(data(), event('alerts-other', 'AlertDismissed', { uid: 'other', itemId: 'a', episode: 7 }, 'alerts'))
        .effect,
    ).toBe('ignored');
    const restored = produce(mine.next, (d) => {
      reduceAlerts(d, event('alerts-me', 'AlertRestored', { uid: 'me', itemId: 'a' }, 'alerts'), params);
    });
    expect(restored.alerts[0]!.dismissed).toBe(false);
  });

  it("takes the server's answer to a dismiss, and searches by name or category", () => {
    const next = produce(data(), (d) => {
      applyAlertWrite(d, { kind: 'dismiss', itemId: 'b', name: 'b' }, alert('b', { dismissed: true }));
    });
    expect(next.alerts[1]!.dismissed).toBe(true);
    expect(filterAlerts(data().alerts, '  dairy ').map((a) => a.itemId)).toEqual(['b']);
    expect(filterAlerts(data().alerts, 'item b').map((a) => a.itemId)).toEqual(['b']);
    expect(filterAlerts(data().alerts, '')).toHaveLength(2);
  });

  it('words notifications and picks which alerts notify', () => {
    expect(alertText('Rice', 2, 5)).toEqual({
      title: 'Low stock: Rice',
      body: '2 left, at or below the threshold of 5.',
    });
    expect(alertText('Rice', 0, 5).title).toBe('Out of stock: Rice');
    expect(shouldNotify({ inAppToasts: true, notifyWhen: 'low' }, 3)).toBe(true);
    expect(shouldNotify({ inAppToasts: true, notifyWhen: 'out' }, 3)).toBe(false);
    expect(shouldNotify({ inAppToasts: true, notifyWhen: 'out' }, 0)).toBe(true);
  });
});

describe('alerts list reducer, an item low at several sites', () => {
  const params = { uid: 'me' };
  const data = (): AlertsData => ({
    alerts: [
      alert('a'),
      alert('m', { siteId: 's1', siteName: 'Main store', quantity: 1, threshold: 4 }),
      alert('m', { siteId: 's2', siteName: 'Shop 2', quantity: 2, threshold: 3 }),
    ],
  });
  const apply = (base: AlertsData, e: FeedEvent) => {
    let effect = '';
    const next = produce(base, (d) => {
      effect = reduceAlerts(d, e, params);
    });
    return { next, effect };
  };
  const rows = (d: AlertsData) => d.alerts.map((a) => `${a.itemId}@${a.siteName ?? ''}`);

  it("removes only the recovered site's row, and fetches what changes a site's figures", () => {
    const recovered = apply(data(), event('item-m', 'SiteRecovered', { siteId: 's2', quantity: 9, threshold: 3 }));
    expect(rows(recovered.next)).toEqual(['a@', 'm@Main store']);
    // Its total recovering ends no row of a site.
    expect(apply(data(), event('item-m', 'ItemRecovered', { quantity: 9, threshold: 4 })).effect).toBe('ignored');
    expect(rows(apply(data(), event('item-m', 'ItemDeleted', { name: 'm', sku: 'm' })).next)).toEqual(['a@']);
    for (const [type, payload] of [
      ['SiteWentLow', { siteId: 's3', quantity: 0, threshold: 1 }],
      ['StockAdjusted', { delta: -1, quantity: 5 }],
      ['SiteThresholdSet', { siteId: 's2', threshold: 1 }],
      [
        'StockShipped',
        { itemId: 'm', transferId: 't', fromLocationId: 'l', quantity: 2, quantityAfter: 18, inTransitAfter: 2 },
      ],
    ] as const)
      expect(apply(data(), event('item-m', type, payload)).effect, type).toBe('refetch');
    expect(apply(data(), event('item-z', 'SiteThresholdSet', { siteId: 's2', threshold: 1 })).effect).toBe('ignored');
  });

  it('renames every row of the item, and flips the dismissal of its one site', () => {
    const renamed = apply(data(), event('item-m', 'ItemUpdated', { changes: { name: { from: 'm', to: 'Milk' } } }));
    expect(renamed.next.alerts.filter((a) => a.itemId === 'm').map((a) => a.name)).toEqual(['Milk', 'Milk']);
    const dismissed = apply(
      data(),
      event('alerts-me', 'AlertDismissed', { uid: 'me', itemId: 'm', episode: 7, siteId: 's2' }, 'alerts'),
    );
    expect(dismissed.next.alerts.map((a) => a.dismissed)).toEqual([false, false, true]);
    const answered = produce(data(), (d) => {
      applyAlertWrite(
        d,
        { kind: 'dismiss', itemId: 'm', name: 'm', siteId: 's1' },
        alert('m', { siteId: 's1', siteName: 'Main store', dismissed: true }),
      );
    });
    expect(answered.alerts.map((a) => a.dismissed)).toEqual([false, true, false]);
  });

  it('searches by site, and notifies naming the site', () => {
    expect(rows({ alerts: filterAlerts(data().alerts, 'shop') })).toEqual(['m@Shop 2']);
    expect(alertText('Milk', 2, 3, 'Shop 2')).toEqual({
      title: 'Low stock at Shop 2: Milk',
      body: '2 left, at or below the threshold of 3.',
    });
    expect(alertText('Milk', 0, 3, 'Shop 2').title).toBe('Out of stock at Shop 2: Milk');
    // Low at two sites is two alerts, not one.
    expect(
      alertsMessage([
        { itemId: 'm', name: 'Milk', quantity: 2, threshold: 3, siteName: 'Shop 2' },
        { itemId: 'm', name: 'Milk', quantity: 0, threshold: 4, siteName: 'Main store' },
      ]),
    ).toBe('2 low-stock alerts (1 out of stock): Milk at Shop 2 and Milk at Main store. See Alerts.');
  });
});
