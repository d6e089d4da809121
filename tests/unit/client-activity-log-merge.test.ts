// The activity log's pure parts: merging the latest entries on top of the list, which
// events write an entry, and how a click on a column header sorts.
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/inventory.js';
import type { FeedEvent } from '../../shared/realtime.js';
import { mergeLatest, writesActivity } from '../../client/features/activity/activity-merge.js';
import { nextSort } from '../../client/features/activity/activity-log.machine.js';
import { DEFAULT_ACTIVITY_PARAMS } from '../../client/features/activity/api.js';

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

describe('activity log', () => {
  it('puts only the new entries on top, or replaces the list when a whole page is new', () => {
    const current = [entry('c'), entry('b'), entry('a')];
    expect(mergeLatest(current, [entry('e'), entry('d'), entry('c'), entry('b')])).toEqual({
      entries: [entry('e'), entry('d'), entry('c'), entry('b'), entry('a')],
      added: ['e', 'd'],
      replaced: false,
    });
    expect(mergeLatest(current, [entry('c'), entry('b')]).added).toEqual([]);
    expect(mergeLatest(current, [entry('z'), entry('y')])).toMatchObject({
      entries: [entry('z'), entry('y')],
      replaced: true,
    });
    expect(mergeLatest([], [entry('a')])).toMatchObject({ entries: [entry('a')], replaced: false });
  });

  it('knows which events write an entry, and how a header click sorts', () => {
    expect(writesActivity(event('item-a', 'StockAdjusted', {}))).toBe(true);
    expect(writesActivity(event('item-a', 'ItemWentLow', {}))).toBe(false);
    expect(nextSort(DEFAULT_ACTIVITY_PARAMS, 'timestamp')).toEqual({ sort: 'timestamp', order: 'asc' });
    expect(nextSort(DEFAULT_ACTIVITY_PARAMS, 'user')).toEqual({ sort: 'user', order: 'asc' });
    expect(nextSort({ ...DEFAULT_ACTIVITY_PARAMS, sort: 'user', order: 'asc' }, 'user')).toEqual({
      sort: 'user',
      order: 'desc',
    });
  });
});
