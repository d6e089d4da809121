// The pure parts of front end part 2: how pushed events change the alerts list, the
// dashboard counts and the wall display; merging live log entries; sorting, search and
// form rules; the small formatters the screens show.
import { produce } from 'immer';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Role, type Settings, type User } from '../../shared/accounts.js';
import { shouldNotify, type LowStockAlert } from '../../shared/alerts.js';
import { expiryText, type DashboardSummary, type DisplaySnapshot } from '../../shared/dashboard.js';
import type { ActivityEntry } from '../../shared/inventory.js';
import type { FeedEvent } from '../../shared/realtime.js';
import { applyAlertWrite, filterAlerts, reduceAlerts, type AlertsData } from '../../client/features/alerts/alert-reducers.js';
import { alertText } from '../../client/features/alerts/alert-notifier.js';
import { mergeLatest, writesActivity } from '../../client/features/activity/activity-merge.js';
import { nextSort } from '../../client/features/activity/activity-log.machine.js';
import { DEFAULT_ACTIVITY_PARAMS } from '../../client/features/activity/api.js';
import { reduceDashboard } from '../../client/features/dashboard/dashboard-reducers.js';
import { durationText } from '../../client/features/dashboard/components/health-card.js';
import { changeLabel } from '../../client/features/dashboard/components/revenue-card.js';
import { chartPath } from '../../client/features/dashboard/components/trend-chart.js';
import { applyDisplayAlert, applyDisplayEvent } from '../../client/features/display/display-reducers.js';
import { DISPLAY_ALERT_ROWS } from '../../client/features/display/display-limits.js';
import { checkPasswordForm, passwordErrorMessage } from '../../client/features/profile/change-password.machine.js';
import { profileChanges } from '../../client/features/profile/profile.machine.js';
import { checkRole } from '../../client/features/roles/role-form.machine.js';
import { filterRoles } from '../../client/features/roles/roles.machine.js';
import { changedFields, isDirty } from '../../client/features/settings/settings.machine.js';
import { checkNewUser } from '../../client/features/users/add-user.machine.js';
import { filterUsers, pendingRequests, roleName } from '../../client/features/users/user-list.js';
import { sameGrant } from '../../client/app/session-grant.js';

let version = 10;
function event(stream: string, type: string, data: unknown, streamType = stream.split('-')[0]!): FeedEvent {
  version += 1;
  return { type, stream, streamType, version, data, actor: { uid: 'u1', name: 'Una' }, time: '2030-01-02T03:04:05.000Z' };
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

function entry(id: string): ActivityEntry {
  return {
    id,
    userId: 'u1',
    userName: 'Una',
    action: 'update',
    resourceType: 'inventory',
    resourceId: 'i1',
    resourceName: 'Rice',
    timestamp: '2030-01-01T00:00:00.000Z',
    details: `Updated inventory item: ${id}`,
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
    expect(apply(data(), event('item-a', 'StockAdjusted', { delta: -1, quantity: 1 })).next.alerts[0]!.quantity).toBe(1);
    expect(apply(data(), event('item-a', 'ItemRecovered', { quantity: 9, threshold: 5 })).next.alerts.map((a) => a.itemId)).toEqual(['b']);
    expect(apply(data(), event('item-b', 'ItemDeleted', { name: 'b', sku: 'b' })).next.alerts.map((a) => a.itemId)).toEqual(['a']);
    expect(apply(data(), event('item-z', 'ItemWentLow', { quantity: 1, threshold: 2 })).effect).toBe('refetch');
    expect(apply(data(), event('item-z', 'StockAdjusted', { delta: 1, quantity: 9 })).effect).toBe('ignored');
  });

  it('follows renames and category moves', () => {
    const renamed = apply(data(), event('item-a', 'ItemUpdated', { changes: { name: { from: 'x', to: 'Jasmine Rice' }, threshold: { from: 5, to: 6 } } }));
    expect(renamed.next.alerts[0]).toMatchObject({ name: 'Jasmine Rice', threshold: 6 });
    expect(apply(data(), event('item-a', 'ItemUpdated', { changes: { categoryId: { from: 'c1', to: 'c2' } } })).effect).toBe('refetch');
    const category = apply(data(), event('category-c2', 'CategoryUpdated', { changes: { name: { from: 'Dairy', to: 'Chilled' } } }));
    expect(category.next.alerts.map((a) => a.category)).toEqual(['Pantry', 'Chilled']);
  });

  it("flips only my own dismissals", () => {
    const mine = apply(data(), event('alerts-me', 'AlertDismissed', { uid: 'me', itemId: 'a', episode: 7 }, 'alerts'));
    expect(mine.next.alerts[0]).toMatchObject({ dismissed: true, dismissedAt: '2030-01-02T03:04:05.000Z' });
    expect(apply(data(), event('alerts-other', 'AlertDismissed', { uid: 'other', itemId: 'a', episode: 7 }, 'alerts')).effect).toBe('ignored');
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
    expect(alertText('Rice', 2, 5)).toEqual({ title: 'Low stock: Rice', body: '2 left, at or below the threshold of 5.' });
    expect(alertText('Rice', 0, 5).title).toBe('Out of stock: Rice');
    expect(shouldNotify({ inAppToasts: true, notifyWhen: 'low' }, 3)).toBe(true);
    expect(shouldNotify({ inAppToasts: true, notifyWhen: 'out' }, 3)).toBe(false);
    expect(shouldNotify({ inAppToasts: true, notifyWhen: 'out' }, 0)).toBe(true);
  });
});

describe('dashboard and wall display reducers', () => {
  const summary = { totals: { items: 2, categories: 1, units: 10, value: 20, lowStock: 1 }, health: { reorderAlerts: { open: 1, raisedLast30Days: 1 } } } as DashboardSummary;

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
    expect(reduceDashboard(produce(summary, () => undefined) as never, event('user-u', 'UserRoleChanged', {}))).toBe('ignored');
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
      applyDisplayAlert(d, { type: 'alert', cursor: '1:1', item: { id: 'c', name: 'C', sku: 'C' }, quantity: 3, threshold: 4 }, '2030-01-01T11:00:00.000Z');
      applyDisplayEvent(d, event('item-b', 'StockAdjusted', { delta: -1, quantity: 0 }));
    });
    expect(next.alerts.map((a) => a.name)).toEqual(['B', 'C', 'A']);
    expect(next.alertCount).toBe(3);
    const recovered = produce(next, (d) => applyDisplayEvent(d, event('item-a', 'ItemRecovered', { quantity: 9, threshold: 5 })));
    expect(recovered.alerts.map((a) => a.name)).toEqual(['B', 'C']);
    expect(recovered.alertCount).toBe(2);
    const again = produce(recovered, (d) => applyDisplayAlert(d, { type: 'alert', cursor: '1:2', item: { id: 'c', name: 'C', sku: 'C' }, quantity: 3, threshold: 4 }, 'x'));
    expect(again.alertCount).toBe(2);
  });

  it('keeps at most DISPLAY_ALERT_ROWS alerts on the wall however many arrive', () => {
    const next = produce(snapshot(), (d) => {
      for (let i = 0; i < DISPLAY_ALERT_ROWS + 10; i++)
        applyDisplayAlert(d, { type: 'alert', cursor: `1:${i}`, item: { id: `n${i}`, name: `N${i}`, sku: '' }, quantity: 1, threshold: 2 }, new Date(Date.UTC(2031, 0, 1, 0, 0, i)).toISOString());
    });
    expect(next.alerts).toHaveLength(DISPLAY_ALERT_ROWS);
    expect(next.alertCount).toBe(DISPLAY_ALERT_ROWS + 12);
    expect(next.alerts[0]!.name).toBe(`N${DISPLAY_ALERT_ROWS + 9}`);
  });
});

describe('activity log', () => {
  it('puts only the new entries on top, or replaces the list when a whole page is new', () => {
    const current = [entry('c'), entry('b'), entry('a')];
    expect(mergeLatest(current, [entry('e'), entry('d'), entry('c'), entry('b')])).toEqual({
      entries: [entry('e'), entry('d'), entry('c'), entry('b'), entry('a')],
      added: ['e', 'd'],
      replaced: false,
    });
    expect(mergeLatest(current, [entry('c'), entry('b')]).added).toEqual([]);
    expect(mergeLatest(current, [entry('z'), entry('y')])).toMatchObject({ entries: [entry('z'), entry('y')], replaced: true });
    expect(mergeLatest([], [entry('a')])).toMatchObject({ entries: [entry('a')], replaced: false });
  });

  it('knows which events write an entry, and how a header click sorts', () => {
    expect(writesActivity(event('item-a', 'StockAdjusted', {}))).toBe(true);
    expect(writesActivity(event('item-a', 'ItemWentLow', {}))).toBe(false);
    expect(nextSort(DEFAULT_ACTIVITY_PARAMS, 'timestamp')).toEqual({ sort: 'timestamp', order: 'asc' });
    expect(nextSort(DEFAULT_ACTIVITY_PARAMS, 'user')).toEqual({ sort: 'user', order: 'asc' });
    expect(nextSort({ ...DEFAULT_ACTIVITY_PARAMS, sort: 'user', order: 'asc' }, 'user')).toEqual({ sort: 'user', order: 'desc' });
  });
});

describe('users, roles, settings and profile rules', () => {
  const roles = [
    { id: 'manager', name: 'Store Manager', description: 'All', permissions: ['users:manage'], builtIn: true, userCount: 1 },
    { id: 'role-x', name: 'Shelf Viewer', description: 'Looks only', permissions: ['inventory:view'], builtIn: false, userCount: 0 },
  ] as Role[];
  const user = (id: string, name: string, role: string, extra: Partial<User> = {}): User => ({
    id,
    name,
    email: `${id}@x.test`,
    role,
    status: 'active',
    provider: 'password',
    createdAt: '2030-01-01T00:00:00.000Z',
    avatar: null,
    managerRequest: null,
    ...extra,
  });
  const users = [user('u1', 'Mia', 'manager'), user('u2', 'Sam', 'role-x'), user('u3', 'Rita', 'staff', { managerRequest: 'pending' })];

  it('searches users by name, email or role name, and finds pending requests', () => {
    expect(filterUsers(users, roles, 'shelf').map((u) => u.name)).toEqual(['Sam']);
    expect(filterUsers(users, roles, 'STORE manager').map((u) => u.name)).toEqual(['Mia']);
    expect(filterUsers(users, roles, 'u3@x').map((u) => u.name)).toEqual(['Rita']);
    expect(pendingRequests(users).map((u) => u.name)).toEqual(['Rita']);
    expect(roleName('staff', roles)).toBe('Staff Member');
    expect(filterRoles(roles, 'view inventory', (p) => (p === 'inventory:view' ? 'View inventory' : p)).map((r) => r.name)).toEqual(['Shelf Viewer']);
  });

  it('checks the Add User and role forms before asking the server', () => {
    const body = { name: 'Nina', email: 'nina@x.test', password: 'secret1', role: 'staff' };
    expect(checkNewUser(body)).toBeNull();
    expect(checkNewUser({ ...body, name: ' ' })).toBe('Please fill in all required fields');
    expect(checkNewUser({ ...body, email: 'nina' })).toBe('Please enter a valid email address');
    expect(checkNewUser({ ...body, password: '123' })).toBe('The password needs at least 6 characters');
    expect(checkRole({ name: 'X', description: '', permissions: ['inventory:view'] })).toBe('Role name and description are required');
    expect(checkRole({ name: 'X', description: 'Y', permissions: [] })).toBe('Choose at least one permission');
  });

  it('sends only changed settings and profile fields', () => {
    const saved: Settings = { ...DEFAULT_SETTINGS, storeName: 'A', email: '', lowStockThreshold: 10, emailNotifications: true, pushNotifications: true, allowGuests: true, currency: 'USD', locale: 'en-US' };
    expect(changedFields(saved, { ...saved, storeName: 'B', allowGuests: false })).toEqual({ storeName: 'B', allowGuests: false });
    expect(isDirty({ saved, draft: saved })).toBe(false);
    const profile = { user: user('u1', 'Mia', 'manager'), preferences: { browserNotifications: false } };
    expect(profileChanges(profile, ' Mia ', 'U1@x.test')).toEqual({ changes: {} });
    expect(profileChanges(profile, 'Mia Rose', 'mia@x.test')).toEqual({ changes: { name: 'Mia Rose', email: 'mia@x.test' } });
    expect(profileChanges(profile, '', 'u1@x.test')).toEqual({ error: 'Full Name is required' });
    expect(profileChanges(profile, 'Mia', 'nope')).toEqual({ error: 'Invalid email address' });
  });

  it('checks the password form and words Firebase refusals', () => {
    expect(checkPasswordForm({ current: 'old123', next: 'new123', confirm: 'new124' })).toBe('Passwords do not match');
    expect(checkPasswordForm({ current: 'old123', next: 'abc', confirm: 'abc' })).toBe('Password is too weak. Please use a stronger password');
    expect(checkPasswordForm({ current: '', next: 'new123', confirm: 'new123' })).toBe('Please fill in all password fields');
    expect(checkPasswordForm({ current: 'old123', next: 'new123', confirm: 'new123' })).toBeNull();
    expect(passwordErrorMessage({ code: 'auth/invalid-credential' })).toBe('Current password is incorrect');
    expect(passwordErrorMessage({ code: 'auth/too-many-requests' })).toBe('Too many failed login attempts. Please try again later');
    expect(passwordErrorMessage(new Error('boom'))).toBe('Failed to change password');
  });

  it("notices when the server's grant differs from the session's", () => {
    expect(sameGrant({ role: 'staff', permissions: ['a', 'b'] }, { role: 'staff', permissions: ['b', 'a'] })).toBe(true);
    expect(sameGrant({ role: 'manager', permissions: ['a'] }, { role: 'staff', permissions: ['a'] })).toBe(false);
    expect(sameGrant({ role: 'role-x', permissions: ['a', 'c'] }, { role: 'role-x', permissions: ['a'] })).toBe(false);
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
