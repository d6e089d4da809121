// Cursor order (xid8 transaction ids compared as numbers, not text) and who may see which
// stream types on the feed.
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../shared/permissions.js';
import { compareCursors } from '../../server/realtime/cursor-order.js';
import { Audience, audienceMask, audienceOfStreamType } from '../../server/realtime/event-visibility.js';

describe('cursor order', () => {
  it('orders by transaction id as a number, then by position', () => {
    const sorted = [
      { txId: '1000', position: 1 },
      { txId: '999', position: 7 },
      { txId: '18446744073709551000', position: 2 },
      { txId: '999', position: 3 },
      { txId: '0', position: 0 },
    ].sort(compareCursors);
    expect(sorted).toEqual([
      { txId: '0', position: 0 },
      { txId: '999', position: 3 },
      { txId: '999', position: 7 },
      { txId: '1000', position: 1 },
      { txId: '18446744073709551000', position: 2 },
    ]);
    expect(compareCursors({ txId: '0042', position: 1 }, { txId: '42', position: 1 })).toBe(0);
  });
});

describe('feed visibility', () => {
  const sees = (role: keyof typeof BUILT_IN_ROLES, streamType: string) =>
    (audienceMask(BUILT_IN_ROLES[role].permissions) & audienceOfStreamType(streamType)) !== 0;

  it('shows user and role events only to those who may view users', () => {
    expect(sees('guest', 'user')).toBe(false);
    expect(sees('guest', 'role')).toBe(false);
    expect(sees('staff', 'user')).toBe(false);
    expect(sees('manager', 'user')).toBe(true);
    expect(audienceMask(['users:view']) & Audience.userManagement).toBeTruthy();
  });

  it('shows inventory and settings to every built-in role', () => {
    for (const role of ['guest', 'staff', 'manager'] as const) {
      expect(sees(role, 'item')).toBe(true);
      expect(sees(role, 'category')).toBe(true);
      expect(sees(role, 'settings')).toBe(true);
    }
    expect(audienceMask([]) & Audience.inventory).toBe(0);
  });

  it('shows webhook endpoint and API token events to those who manage settings only', () => {
    expect(sees('manager', 'webhook')).toBe(true);
    expect(sees('staff', 'webhook')).toBe(false);
    expect(sees('guest', 'api-token')).toBe(false);
    expect(audienceMask(['settings:manage']) & audienceOfStreamType('webhook')).toBeTruthy();
    expect(audienceMask(['users:manage']) & audienceOfStreamType('api-token')).toBe(0);
  });

  it('shows stocktake events to those who count or run counts, never to guests', () => {
    expect(sees('staff', 'stocktake')).toBe(true);
    expect(sees('manager', 'stocktake')).toBe(true);
    expect(sees('guest', 'stocktake')).toBe(false);
    expect(audienceMask(['inventory:view']) & audienceOfStreamType('stocktake')).toBe(0);
    expect(audienceMask(['stocktake:run']) & audienceOfStreamType('stocktake')).toBeTruthy();
  });

  it('keeps stream types it does not know to managers', () => {
    expect(sees('manager', 'something-new')).toBe(true);
    expect(sees('staff', 'something-new')).toBe(false);
    expect(sees('guest', 'something-new')).toBe(false);
  });
});
