// The activity log machine with stand-in actors (no server, no socket): it pages by cursor,
// waits for a pause in typing before searching, and takes live entries on top. And what the
// page asks the server: the place filter reaches the CSV export too, and Revert is offered
// on item and category entries only.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { ActivityEntry, ActivityPage } from '../../shared/inventory.js';
import type { FeedEvent } from '../../shared/realtime.js';
import { activityLogMachine } from '../../client/features/activity/activity-log.machine.js';
import { activityApi, DEFAULT_ACTIVITY_PARAMS, type ActivityParams } from '../../client/features/activity/api.js';
import { revertable } from '../../client/features/activity/components/activity-table.js';

type FeedOut = { type: 'FEED_EVENT'; event: FeedEvent } | { type: 'RESYNC' };
const quietFeed = fromCallback<FeedOut>(() => () => undefined);

function entry(id: string): ActivityEntry {
  return {
    id,
    userId: null,
    userName: 'Una',
    action: 'update',
    resourceType: 'inventory',
    resourceId: 'i',
    resourceName: 'Rice',
    timestamp: '2030-01-01T00:00:00Z',
    details: id,
  };
}

function feedEvent(type = 'StockAdjusted'): FeedEvent {
  return {
    type,
    stream: 'item-1',
    streamType: 'item',
    version: 2,
    data: { delta: -1, quantity: 1 },
    actor: { uid: null, name: 'x' },
    time: '',
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('activity log machine', () => {
  function start(pages: (params: ActivityParams, cursor: string | null) => ActivityPage) {
    const calls: { params: ActivityParams; cursor: string | null }[] = [];
    const actor = createActor(
      activityLogMachine.provide({
        actors: {
          loadPage: fromPromise(async ({ input }: { input: { params: ActivityParams; cursor: string | null } }) => {
            calls.push(input);
            return pages(input.params, input.cursor);
          }),
          feed: quietFeed,
        },
      }),
    ).start();
    return { actor, calls };
  }

  it('loads the first page, then the next by cursor, until there is none', async () => {
    const { actor, calls } = start((_p, cursor) =>
      cursor ? { entries: [entry('c')], nextCursor: null } : { entries: [entry('b'), entry('a')], nextCursor: 'k1' },
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'LOAD_MORE' });
    await waitFor(actor, (s) => s.context.entries.length === 3);
    expect(actor.getSnapshot().context.nextCursor).toBeNull();
    actor.send({ type: 'LOAD_MORE' });
    expect(calls.map((c) => c.cursor)).toEqual([null, 'k1']);
  });

  it('waits for a pause in typing before searching, and RESET clears filters', async () => {
    vi.useFakeTimers();
    const { actor, calls } = start(() => ({ entries: [], nextCursor: null }));
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'TYPE', q: 'r' });
    actor.send({ type: 'TYPE', q: 'ri' });
    actor.send({ type: 'TYPE', q: 'ric' });
    await vi.advanceTimersByTimeAsync(350);
    expect(calls.map((c) => c.params.q)).toEqual(['', 'ric']);
    actor.send({ type: 'SET_ACTION', action: 'delete' });
    actor.send({ type: 'SET_PLACE', place: { siteId: 'site-1', locationId: 'shelf-2' } });
    actor.send({ type: 'SORT', column: 'user' });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.at(-1)!.params).toEqual({
      q: 'ric',
      action: 'delete',
      place: { siteId: 'site-1', locationId: 'shelf-2' },
      sort: 'user',
      order: 'asc',
    });
    actor.send({ type: 'RESET' });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.at(-1)!.params).toEqual({ q: '', action: 'all', place: {}, sort: 'timestamp', order: 'desc' });
  });

  it('puts live entries on top when newest first, and only flags them under another sort', async () => {
    vi.useFakeTimers();
    let latest = [entry('b'), entry('a')];
    const { actor } = start(() => ({ entries: latest, nextCursor: null }));
    await vi.advanceTimersByTimeAsync(10);
    latest = [entry('c'), entry('b'), entry('a')];
    actor.send({ type: 'FEED_EVENT', event: feedEvent() });
    actor.send({ type: 'FEED_EVENT', event: feedEvent('ItemWentLow') });
    await vi.advanceTimersByTimeAsync(300);
    expect(actor.getSnapshot().context.entries.map((e) => e.id)).toEqual(['c', 'b', 'a']);
    expect(actor.getSnapshot().context.fresh).toEqual(['c']);

    actor.send({ type: 'SORT', column: 'action' });
    await vi.advanceTimersByTimeAsync(10);
    actor.send({ type: 'FEED_EVENT', event: feedEvent() });
    await vi.advanceTimersByTimeAsync(300);
    expect(actor.getSnapshot().context.newActivity).toBe(true);
  });
});

describe('activity log requests', () => {
  it("sends the site and location filter to the export, and offers Revert on item and category changes and a transfer's steps only", () => {
    const place = { siteId: 'site-1', locationId: 'shelf-2' };
    expect(activityApi.csvPath({ ...DEFAULT_ACTIVITY_PARAMS, place })).toBe(
      '/api/activity.csv?sort=timestamp&order=desc&siteId=site-1&locationId=shelf-2',
    );
    const withEvent = (resourceType: ActivityEntry['resourceType']) => ({ ...entry('e'), resourceType, eventId: 'ev' });
    expect(
      ['inventory', 'category', 'site', 'location', 'stocktake'].filter((t) => revertable(withEvent(t as never))),
    ).toEqual(['inventory', 'category']);
    expect(revertable({ ...entry('e'), eventId: null })).toBe(false);
    // A transfer's shipment, receipt and write-off are undone from the log; its creation, cancelling and undos are not.
    const transferEntry = (eventType: string) => ({ ...withEvent('transfer'), eventType });
    expect(
      [
        'TransferCreated',
        'TransferShipped',
        'TransferReceived',
        'TransferLineWrittenOff',
        'TransferCancelled',
        'TransferShipmentUndone',
      ].filter((t) => revertable(transferEntry(t))),
    ).toEqual(['TransferShipped', 'TransferReceived', 'TransferLineWrittenOff']);
  });
});
