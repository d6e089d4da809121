// The activity page takes stocktake entries live: a count made on a phone shows on
// an open log without a reload, as item changes do.
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { ActivityEntry, ActivityPage } from '../../shared/inventory.js';
import type { FeedEvent } from '../../shared/realtime.js';
import { activityLogMachine } from '../../client/features/activity/activity-log.machine.js';
import { writesActivity } from '../../client/features/activity/activity-merge.js';

const entry = (id: string, details: string): ActivityEntry => ({
  id,
  userId: null,
  userName: 'Stan',
  action: 'update',
  // The server writes 'stocktake' rows though ResourceType does not list it yet (shared/inventory.ts).
  resourceType: 'stocktake' as ActivityEntry['resourceType'],
  resourceId: 's',
  resourceName: 'Count: Cellar',
  timestamp: '2030-01-01T00:00:00Z',
  details,
});

const stocktakeEvent = (type: string): FeedEvent => ({
  type,
  stream: 'stocktake-s',
  streamType: 'stocktake',
  version: 2,
  data: { itemId: 'i', counted: 8, countedAt: '2030-01-01T00:00:00Z' },
  actor: { uid: null, name: 'Stan' },
  time: '',
});

describe('live stocktake entries on the activity page', () => {
  it('counts every stocktake event as one that writes an entry', () => {
    for (const type of ['StocktakeStarted', 'StockCounted', 'StocktakeLinesApproved', 'StocktakeClosed']) {
      expect(writesActivity(stocktakeEvent(type))).toBe(true);
    }
  });

  it('puts a count made elsewhere on top of the open log', async () => {
    vi.useFakeTimers();
    try {
      let latest: ActivityEntry[] = [entry('a', 'Started stocktake: Count: Cellar (3 items to count)')];
      const actor = createActor(
        activityLogMachine.provide({
          actors: {
            loadPage: fromPromise(async (): Promise<ActivityPage> => ({ entries: latest, nextCursor: null })),
            feed: fromCallback(() => () => undefined),
          },
        }),
      ).start();
      await vi.advanceTimersByTimeAsync(10);
      latest = [entry('b', 'Counted Red Wine: 8 (stocktake Count: Cellar)'), ...latest];
      actor.send({ type: 'FEED_EVENT', event: stocktakeEvent('StockCounted') });
      await vi.advanceTimersByTimeAsync(300);
      expect(actor.getSnapshot().context.entries.map((e) => e.id)).toEqual(['b', 'a']);
      expect(actor.getSnapshot().context.fresh).toEqual(['b']);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
