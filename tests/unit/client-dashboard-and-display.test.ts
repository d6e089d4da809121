// The dashboard's and the wall display's pure parts: how pushed events move their counts and
// alert rows, and how the dashboard words expiry, change and durations and draws its chart.
import { produce } from 'immer';
import { describe, expect, it } from 'vitest';
import { expiryText, type DashboardSummary, type DisplaySnapshot } from '../../shared/dashboard.js';
import type { FeedEvent } from '../../shared/realtime.js';
import { reduceDashboard } from '../../client/features/dashboard/dashboard-reducers.js';
import { durationText } from '../../client/features/dashboard/components/health-card.js';
import { changeLabel } from '../../client/features/dashboard/components/revenue-card.js';
import { chartPath } from '../../client/features/dashboard/components/trend-chart.js';
import { applyDisplayAlert, applyDisplayEvent } from '../../client/features/display/display-reducers.js';
import { DISPLAY_ALERT_ROWS } from '../../client/features/display/display-limits.js';

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

describe('dashboard and wall display reducers', () => {
  const summary = {
    totals: { items: 2, categories: 1, units: 10, value: 20, lowStock: 1 },
    health: { reorderAlerts: { open: 1, raisedLast30Days: 1 } },
  } as DashboardSummary;

  it('moves the counts an event states and always asks for fresh figures', () => {
    let effect = '';
    const next = produce(summary, (d) => {
      reduceDashboard(d, event('item-x', 'ItemCreated', { itemId: 'x', quantity: 3, price: 1.5 }));
      reduceDashboard(d, event('item-x', 'ItemWentLow', { quantity: 3, threshold: 4 }));
      reduceDashboard(d, event('item-y', 'StockAdjusted', { delta: -2, quantity: 1 }));
      effect = reduceDashboard(d, event('category-c', 'CategoryCreated', { categoryId: 'c', name: 'New' }));
    });
    expect(next.totals).toEqual({ items: 3, categories: 2, units: 11, value: 24.5, lowStock: 2 });
    expect(next.health.reorderAlerts.open).toBe(2);
    expect(effect).toBe('refetch');
    expect(reduceDashboard(produce(summary, () => undefined) as never, event('user-u', 'UserRoleChanged', {}))).toBe(
      'ignored',
    );
  });

  const snapshot = (): DisplaySnapshot => ({
    generatedAt: '',
    storeName: 'S',
    money: { currency: 'USD', locale: 'en-US' },
    alertCount: 2,
    categories: [],
    recentActivity: [],
    alerts: [
      { itemId: 'a', name: 'A', category: 'P', quantity: 2, threshold: 5, since: '2030-01-01T10:00:00.000Z' },
      { itemId: 'b', name: 'B', category: 'P', quantity: 1, threshold: 5, since: '2030-01-01T09:00:00.000Z' },
    ],
  });

  it('shows a pushed alert at once, out of stock first then newest, and drops recovered items', () => {
    const next = produce(snapshot(), (d) => {
      applyDisplayAlert(
        d,
        { type: 'alert', cursor: '1:1', item: { id: 'c', name: 'C', sku: 'C' }, quantity: 3, threshold: 4 },
        '2030-01-01T11:00:00.000Z',
      );
      applyDisplayEvent(d, event('item-b', 'StockAdjusted', { delta: -1, quantity: 0 }));
    });
    expect(next.alerts.map((a) => a.name)).toEqual(['B', 'C', 'A']);
    expect(next.alertCount).toBe(3);
    const recovered = produce(next, (d) =>
      applyDisplayEvent(d, event('item-a', 'ItemRecovered', { quantity: 9, threshold: 5 })),
    );
    expect(recovered.alerts.map((a) => a.name)).toEqual(['B', 'C']);
    expect(recovered.alertCount).toBe(2);
    const again = produce(recovered, (d) =>
      applyDisplayAlert(
        d,
        { type: 'alert', cursor: '1:2', item: { id: 'c', name: 'C', sku: 'C' }, quantity: 3, threshold: 4 },
        'x',
      ),
    );
    expect(again.alertCount).toBe(2);
  });

  it('keeps at most DISPLAY_ALERT_ROWS alerts on the wall however many arrive', () => {
    const next = produce(snapshot(), (d) => {
      for (let i = 0; i < DISPLAY_ALERT_ROWS + 10; i++)
        applyDisplayAlert(
          d,
          { type: 'alert', cursor: `1:${i}`, item: { id: `n${i}`, name: `N${i}`, sku: '' }, quantity: 1, threshold: 2 },
          new Date(Date.UTC(2031, 0, 1, 0, 0, i)).toISOString(),
        );
    });
    expect(next.alerts).toHaveLength(DISPLAY_ALERT_ROWS);
    expect(next.alertCount).toBe(DISPLAY_ALERT_ROWS + 12);
    expect(next.alerts[0]!.name).toBe(`N${DISPLAY_ALERT_ROWS + 9}`);
  });
});

describe('the wall display of a store of several sites', () => {
  const snapshot = (): DisplaySnapshot => ({
    generatedAt: '',
    storeName: 'S',
    money: { currency: 'USD', locale: 'en-US' },
    alertCount: 3,
    categories: [],
    recentActivity: [],
    alerts: [
      { itemId: 'a', name: 'A', category: 'P', quantity: 2, threshold: 5, since: '2030-01-01T10:00:00.000Z' },
      {
        ...{ itemId: 'm', name: 'Milk', category: 'D', quantity: 1, threshold: 4, since: '2030-01-01T09:00:00.000Z' },
        ...{ siteId: 's1', siteName: 'Main store' },
      },
      {
        ...{ itemId: 'm', name: 'Milk', category: 'D', quantity: 2, threshold: 3, since: '2030-01-01T08:00:00.000Z' },
        ...{ siteId: 's2', siteName: 'Shop 2' },
      },
    ],
  });
  const rows = (d: DisplaySnapshot) => d.alerts.map((a) => `${a.name}@${a.siteName ?? ''}`);

  it("shows an item's alert at another site as a row of its own, naming the site", () => {
    const next = produce(snapshot(), (d) =>
      applyDisplayAlert(
        d,
        {
          ...{ type: 'alert', cursor: '1:1', item: { id: 'm', name: 'Milk', sku: 'M' }, quantity: 0, threshold: 2 },
          ...{ siteId: 's3', siteName: 'Warehouse' },
        },
        '2030-01-01T11:00:00.000Z',
      ),
    );
    expect(rows(next)).toEqual(['Milk@Warehouse', 'A@', 'Milk@Main store', 'Milk@Shop 2']);
    expect(next.alertCount).toBe(4);
    // The same site again is the same alert.
    const again = produce(next, (d) =>
      applyDisplayAlert(
        d,
        {
          ...{ type: 'alert', cursor: '1:2', item: { id: 'm', name: 'Milk', sku: 'M' }, quantity: 0, threshold: 2 },
          ...{ siteId: 's3', siteName: 'Warehouse' },
        },
        'x',
      ),
    );
    expect(again.alertCount).toBe(4);
  });

  it("drops the recovered site's row only; its total recovering ends none of them", () => {
    const recovered = produce(snapshot(), (d) =>
      applyDisplayEvent(d, event('item-m', 'SiteRecovered', { siteId: 's2', quantity: 8, threshold: 3 })),
    );
    expect(rows(recovered)).toEqual(['A@', 'Milk@Main store']);
    expect(recovered.alertCount).toBe(2);
    const total = produce(snapshot(), (d) =>
      applyDisplayEvent(d, event('item-m', 'ItemRecovered', { quantity: 30, threshold: 5 })),
    );
    expect(rows(total)).toEqual(rows(snapshot()));
    expect(total.alertCount).toBe(3);
    // A sale moves the item's total, not the units at a site: the next snapshot brings those.
    const sold = produce(snapshot(), (d) =>
      applyDisplayEvent(d, event('item-m', 'StockAdjusted', { delta: -1, quantity: 20 })),
    );
    expect(sold.alerts.map((a) => a.quantity)).toEqual([2, 1, 2]);
    const deleted = produce(snapshot(), (d) =>
      applyDisplayEvent(d, event('item-m', 'ItemDeleted', { name: 'Milk', sku: 'M' })),
    );
    expect(rows(deleted)).toEqual(['A@']);
    expect(deleted.alertCount).toBe(1);
  });
});

describe('what the dashboard says', () => {
  it('words expiry, change and durations', () => {
    expect([0, 1, 5].map(expiryText)).toEqual(['Expires today', 'Expires in 1 day', 'Expires in 5 days']);
    expect(changeLabel(null)).toBe('No sales in the previous 30 days');
    expect(changeLabel(12.5)).toBe('+12.5% vs previous 30 days');
    expect(changeLabel(-100)).toBe('-100.0% vs previous 30 days');
    expect([0.25, 5, 76.8].map(durationText)).toEqual(['15 min', '5.0 hours', '3.2 days']);
  });

  it('draws a chart path that spans the box, flat series in the middle', () => {
    const { line, area } = chartPath([0, 50, 100], 300, 90, 0);
    expect(line).toBe('M0 90 L150 45 L300 0');
    expect(area).toBe('M0 90 L150 45 L300 0 L300 90 L0 90 Z');
    expect(chartPath([7, 7], 300, 90).line).toBe('M0 45 L300 45');
    expect(chartPath([], 300, 90)).toEqual({ line: '', area: '' });
  });
});
